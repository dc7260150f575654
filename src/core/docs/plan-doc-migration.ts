/**
 * `lore docs migrate` for one file, text in and text out: a file without frontmatter gets one
 * (type, summary and, when the layout gives them, tags and related_features); a frontmatter
 * missing fields gets them through the YAML document model, so every other field, its comments
 * and its style stay as they were. A frontmatter lore cannot read is left alone and reported.
 * Running it on its own output changes nothing.
 */
import { Document, isMap, isScalar, parseDocument } from 'yaml';
import type { Pair, Scalar } from 'yaml';
import type { Problem } from '../errors.js';
import type { DocField } from './doc-record.js';
import { indexDoc } from './index-doc.js';
import type { DocParseOptions } from './parse-doc-frontmatter.js';
import { readFrontmatter } from './parse-doc-frontmatter.js';
import { isUnclosedFrontmatter } from './split-frontmatter.js';

export type DocMigration = {
  path: string;
  changed: boolean;
  text: string;
  /** Fields written. */
  added: DocField[];
  /** What is still wrong after the migration, for a person to fix. */
  problems: Problem[];
};

export function planDocMigration(
  path: string,
  root: string,
  text: string,
  options: DocParseOptions & { file?: string },
): DocMigration {
  const file = options.file ?? path;
  const indexed = indexDoc(path, root, text, options);
  const { record } = indexed;
  const read = readFrontmatter(file, text);
  const inferred: [DocField, unknown][] = [
    ['type', record.type],
    ['summary', record.summary],
    ['tags', record.tags],
    ['related_features', record.relatedFeatures],
  ];
  const unchanged = (problems: Problem[]): DocMigration => ({
    path,
    changed: false,
    text,
    added: [],
    problems,
  });

  if (isUnclosedFrontmatter(text, read.split)) {
    // a frontmatter opened and never closed (a `---` line, then a field): a second one above it
    // would leave the first as body; a doc that merely starts with a `---` rule is migrated
    return unchanged(read.problems);
  }
  if (read.split.frontmatter === undefined) {
    const fields = inferred.filter(([field, value]) => isWorthWriting(field, value));
    const fresh = new Document({});
    const map = fresh.contents;
    for (const [field, value] of fields) if (isMap(map)) map.items.push(createFieldPair(fresh, field, value));
    const yaml = fresh.toString({ lineWidth: 0, flowCollectionPadding: false });
    const eol = text.includes('\r\n') ? '\r\n' : '\n';
    const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
    const head = `---${eol}${eol === '\n' ? yaml : yaml.replace(/\n/g, eol)}---${eol}`;
    const out = `${bom}${head}${bom === '' ? text : text.slice(1)}`;
    return { path, changed: true, text: out, added: fields.map(([field]) => field), problems: [] };
  }

  const document: Document = parseDocument(read.split.frontmatter, { uniqueKeys: true });
  if (document.errors.length > 0) return unchanged(indexed.problems);
  if (document.contents === null) document.contents = document.createNode({});
  const map = document.contents;
  if (!isMap(map)) return unchanged(indexed.problems);
  const added: DocField[] = [];
  for (const [field, value] of inferred) {
    const current: unknown = map.get(field);
    if (current !== undefined && current !== null) continue;
    if (!isWorthWriting(field, value)) continue;
    const pair = createFieldPair(document, field, value);
    added.push(field);
    if (map.has(field)) {
      map.set(field, pair.value);
      continue;
    }
    if (field !== 'type' && field !== 'summary') {
      map.items.push(pair);
      continue;
    }
    // type first, summary after type: a comment above the first field stays on top
    const at = field === 'summary' ? map.items.findIndex((item) => keyOf(item) === 'type') + 1 : 0;
    const first = map.items[0];
    if (at === 0 && first !== undefined && isScalar(first.key) && first.key.commentBefore) {
      const comment = first.key.commentBefore;
      first.key.commentBefore = undefined;
      (pair.key as Scalar).commentBefore = comment;
    }
    map.items.splice(at, 0, pair);
  }
  if (added.length === 0) return unchanged(indexed.problems);
  const yaml = document.toString({ lineWidth: 0, flowCollectionPadding: false });
  const out = text.slice(0, read.split.frontmatterStart) + yaml + text.slice(read.split.frontmatterEnd);
  const after = indexDoc(path, root, out, options);
  return { path, changed: true, text: out, added, problems: after.problems };
}

/** A `field: value` pair; lists in flow style (`tags: [auth, api]`), as people write them. */
function createFieldPair(document: Document, field: DocField, value: unknown): Pair<unknown, unknown> {
  const pair = document.createPair(field, value, { flow: Array.isArray(value) });
  return pair as Pair<unknown, unknown>;
}

function keyOf(item: Pair<unknown, unknown>): unknown {
  return isScalar(item.key) ? item.key.value : item.key;
}

function isWorthWriting(field: DocField, value: unknown): boolean {
  if (field === 'type' || field === 'summary') return true;
  return Array.isArray(value) && value.length > 0;
}
