/**
 * The strict reading of a doc's frontmatter: every problem names the file, the line and the
 * field, the way `lore check` reports lessons.
 */
import { LineCounter, parseDocument } from 'yaml';
import type { Document } from 'yaml';
import type { Problem } from '../errors.js';
import { compileGlob } from '../match/glob.js';
import { classifyArtifact } from './artifact-ref.js';
import { DOC_FIELDS, NO_FRONTMATTER, UNCLOSED_FRONTMATTER } from './doc-record.js';
import { DocFrontmatterSchema } from './doc-schema.js';
import type { DocField, DocFrontmatter } from './doc-schema.js';
import { isUnclosedFrontmatter, splitFrontmatter } from './split-frontmatter.js';
import type { SplitDoc } from './split-frontmatter.js';
import { yamlValue } from '../lesson/lesson-yaml.js';

export { NO_FRONTMATTER, UNCLOSED_FRONTMATTER } from './doc-record.js';

export type DocParseOptions = { taskPrefixes: readonly string[] };

export type ReadFrontmatter = {
  split: SplitDoc;
  /** The parsed mapping, when the frontmatter is valid YAML holding one. */
  raw: Record<string, unknown> | undefined;
  document: Document | undefined;
  /** File line of a YAML node, for problems. */
  lineOf(path: readonly (string | number)[]): number;
  /** Problems that make the frontmatter unusable as a whole (missing, bad YAML, not a mapping). */
  problems: Problem[];
};

export function readFrontmatter(file: string, text: string): ReadFrontmatter {
  const split = splitFrontmatter(text);
  const none = { split, raw: undefined, document: undefined, lineOf: () => 1 };
  if (split.frontmatter === undefined) {
    return {
      ...none,
      problems: [
        {
          file,
          line: 1,
          message: isUnclosedFrontmatter(text, split) ? UNCLOSED_FRONTMATTER : NO_FRONTMATTER,
          severity: 'error',
        },
      ],
    };
  }
  const lineCounter = new LineCounter();
  const document = parseDocument(split.frontmatter, {
    lineCounter,
    uniqueKeys: true,
    prettyErrors: false,
    // every field is text: `0123456789` (a lesson id) and `summary: 2024` stay strings
    schema: 'failsafe',
  });
  const toFileLine = (offset: number): number => lineCounter.linePos(offset).line + split.frontmatterLine - 1;
  if (document.errors.length > 0) {
    return {
      ...none,
      document,
      problems: document.errors.map((error) => ({
        file,
        line: toFileLine(error.pos[0]),
        message: `invalid YAML in the frontmatter: ${error.message.split('\n')[0] ?? ''}`,
        severity: 'error' as const,
      })),
    };
  }
  const lineOf = (path: readonly (string | number)[]): number => {
    const node = document.getIn(path, true) as { range?: [number, number, number] } | undefined;
    if (node?.range) return toFileLine(node.range[0]);
    const pair = path.length > 0 ? document.getIn(path.slice(0, -1), true) : undefined;
    const range = (pair as { range?: [number, number, number] } | undefined)?.range;
    return range ? toFileLine(range[0]) : split.frontmatterLine;
  };
  const built = yamlValue(document);
  if ('error' in built)
    return {
      ...none,
      document,
      problems: [
        {
          file,
          line: split.frontmatterLine,
          message: `invalid YAML in the frontmatter: ${built.error}`,
          severity: 'error',
        },
      ],
    };
  const value = built.value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return {
      split,
      raw: undefined,
      document,
      lineOf,
      problems: [
        {
          file,
          line: split.frontmatterLine,
          message: 'the frontmatter must be a mapping of fields (type: design, summary: ...)',
          severity: 'error',
        },
      ],
    };
  }
  return { split, raw: value as Record<string, unknown>, document, lineOf, problems: [] };
}

/** Problems of one field's value (the field present in `raw`). */
export function checkDocField(
  file: string,
  field: DocField,
  value: unknown,
  lineOf: ReadFrontmatter['lineOf'],
  options: DocParseOptions,
): Problem[] {
  const checked = DocFrontmatterSchema.shape[field].safeParse(value);
  if (!checked.success) {
    return checked.error.issues.map((issue) => ({
      file,
      line: lineOf([field, ...(issue.path as (string | number)[])]),
      field: [field, ...issue.path].join('.'),
      message: fieldMessage(field, issue.message),
      severity: 'error' as const,
    }));
  }
  const problems: Problem[] = [];
  if (field === 'related_artifacts') {
    (checked.data as string[] | undefined)?.forEach((id, index) => {
      const ref = classifyArtifact(id, options.taskPrefixes);
      if (!ref.ok) {
        problems.push({
          file,
          line: lineOf([field, index]),
          field: `${field}.${index}`,
          message: ref.message,
          severity: 'error',
        });
      }
    });
  }
  if (field === 'paths') {
    (checked.data as string[] | undefined)?.forEach((glob, index) => {
      try {
        new RegExp(compileGlob(glob));
      } catch {
        problems.push({
          file,
          line: lineOf([field, index]),
          field: `${field}.${index}`,
          message: `"${glob}" is not a valid path glob`,
          severity: 'error',
        });
      }
    });
  }
  return problems;
}

function fieldMessage(field: DocField, message: string): string {
  if (field === 'type') return `type must be one of design, pattern, context, glossary, runbook (${message})`;
  if (field === 'summary')
    return `summary ${message.startsWith('must') ? message : `must be one non-empty line (${message})`}`;
  return `${field} must be a list of strings (${message})`;
}

export type StrictDoc = { ok: true; frontmatter: DocFrontmatter } | { ok: false; problems: Problem[] };

/** The strict parser: the frontmatter exactly as the schema says, or every problem with it. */
export function parseDocFrontmatter(file: string, text: string, options: DocParseOptions): StrictDoc {
  const read = readFrontmatter(file, text);
  const problems = checkFrontmatter(file, read, options);
  if (problems.length > 0 || read.raw === undefined) return { ok: false, problems };
  return { ok: true, frontmatter: DocFrontmatterSchema.parse(read.raw) };
}

/** Every problem of a frontmatter already read, in line order. */
export function checkFrontmatter(file: string, read: ReadFrontmatter, options: DocParseOptions): Problem[] {
  if (read.raw === undefined) return read.problems;
  const problems: Problem[] = [];
  for (const key of Object.keys(read.raw)) {
    if (!(DOC_FIELDS as readonly string[]).includes(key)) {
      problems.push({
        file,
        line: read.lineOf([key]),
        field: key,
        message: `unknown field "${key}"; a doc's frontmatter has only ${DOC_FIELDS.join(', ')}`,
        severity: 'error',
      });
    }
  }
  for (const field of DOC_FIELDS) {
    const value = read.raw[field];
    if (value === undefined || value === null) {
      if (field === 'type' || field === 'summary') {
        problems.push({
          file,
          line: read.split.frontmatterLine,
          field,
          message:
            field === 'type'
              ? 'type is required: design, pattern, context, glossary or runbook'
              : 'summary is required: one line saying what the doc is for',
          severity: 'error',
        });
      }
      continue;
    }
    problems.push(...checkDocField(file, field, value, read.lineOf, options));
  }
  return problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
}
