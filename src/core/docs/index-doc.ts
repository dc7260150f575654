/**
 * The tolerant reading of a doc: always a record. Valid frontmatter fields are kept, the rest is
 * inferred from the directory layout and the body; a broken frontmatter still leaves the body.
 */
import type { Problem } from '../errors.js';
import { DOC_FIELDS, DocFrontmatterSchema } from './doc-schema.js';
import type { DocField, DocRecord, DocType } from './doc-schema.js';
import { extractSummary } from './extract-summary.js';
import { inferDocLayout } from './infer-doc-layout.js';
import { checkFrontmatter, readFrontmatter } from './parse-doc-frontmatter.js';
import type { DocParseOptions } from './parse-doc-frontmatter.js';

export type IndexedDoc = { record: DocRecord; body: string; problems: Problem[] };

/** Fields whose bad entries are dropped one by one instead of dropping the whole field. */
const PER_ENTRY: readonly DocField[] = ['paths', 'related_artifacts'];

/** `path` is repo-relative; `root` the docs root it was found under; `options.file` the path shown in problems. */
export function indexDoc(
  path: string,
  root: string,
  text: string,
  options: DocParseOptions & { file?: string },
): IndexedDoc {
  const file = options.file ?? path;
  const read = readFrontmatter(file, text);
  const problems = checkFrontmatter(file, read, options);
  const layout = inferDocLayout(path, root);
  const body = read.split.body;
  const valid: Partial<Record<DocField, unknown>> = {};
  for (const field of DOC_FIELDS) {
    const value = read.raw?.[field];
    if (value === undefined || value === null) continue;
    const parsed = DocFrontmatterSchema.shape[field].safeParse(value);
    if (!parsed.success) continue;
    if (PER_ENTRY.includes(field)) {
      const bad = new Set(problems.filter((p) => p.field?.startsWith(`${field}.`)).map((p) => p.field));
      valid[field] = (parsed.data as string[]).filter((_, index) => !bad.has(`${field}.${index}`));
    } else {
      valid[field] = parsed.data;
    }
  }
  const usable = Object.keys(valid).length;
  const record: DocRecord = {
    path,
    type: (valid.type as DocType | undefined) ?? layout.type,
    summary: (valid.summary as string | undefined) ?? extractSummary(body, path),
    tags: (valid.tags as string[] | undefined) ?? layout.tags,
    paths: (valid.paths as string[] | undefined) ?? [],
    relatedFeatures: (valid.related_features as string[] | undefined) ?? layout.relatedFeatures,
    relatedArtifacts: (valid.related_artifacts as string[] | undefined) ?? [],
    source: problems.length === 0 ? 'frontmatter' : usable === 0 ? 'inferred' : 'partial',
    bodyLine: read.split.bodyLine,
  };
  return { record, body, problems };
}
