import type { Problem } from '../errors.js';

/** Checks on parsed JSON/YAML values, shared by the format readers. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A source file's text as JSON; undefined when there is no text or it is not JSON. */
export function readJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * A JSON source file's list of entries (`listOf` finds it; it sits under `listKey`) and the rest
 * of the document, kept for a lossless export. A file that is not such a document is reported as
 * `expected` and gives undefined.
 */
export function readJsonList(
  file: { path: string; text?: string },
  listOf: (document: unknown) => unknown[] | undefined,
  listKey: string,
  expected: string,
  problems: Problem[],
): { list: unknown[]; wrapper: Record<string, unknown> } | undefined {
  const document = readJson(file.text);
  const list = listOf(document);
  if (list === undefined) {
    problems.push({ file: file.path, message: `${expected}; skipped`, severity: 'error' });
    return undefined;
  }
  const wrapper = { ...(document as Record<string, unknown>) };
  delete wrapper[listKey];
  return { list, wrapper };
}

/**
 * The strings of a list; anything else gives an empty list. For what lore itself kept in
 * `origin.fields`; a source's own fields go through `readFields`, which reports a wrong type.
 */
export function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** A source field whose value has the wrong type: the entry is reported and skipped whole. */
export type FieldIssue = { field: string; expected: string; value: unknown };

/**
 * Typed reads of one source entry's fields. Absent (undefined or null) is absent; a value of
 * another type is an issue, never a silent default: `"tags": "safety"` or `"priority": "9"` would
 * otherwise import a lesson without its tags or priority (half-imported), and the README promises
 * an unreadable entry is skipped whole.
 */
export function readFields(entry: Record<string, unknown>, issues: FieldIssue[], prefix = '') {
  const present = (key: string) => entry[key] !== undefined && entry[key] !== null;
  const wrong = (key: string, expected: string) => {
    issues.push({ field: `${prefix}${key}`, expected, value: entry[key] });
    return undefined;
  };
  return {
    stringList(key: string): string[] {
      const value = entry[key];
      if (!present(key)) return [];
      if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value as string[];
      wrong(key, 'a list of strings');
      return [];
    },
    number(key: string): number | undefined {
      const value = entry[key];
      if (!present(key)) return undefined;
      return typeof value === 'number' && Number.isFinite(value) ? value : wrong(key, 'a number');
    },
    text(key: string): string | undefined {
      const value = entry[key];
      if (!present(key)) return undefined;
      return typeof value === 'string' ? value : wrong(key, 'a string');
    },
    boolean(key: string): boolean | undefined {
      const value = entry[key];
      if (!present(key)) return undefined;
      return typeof value === 'boolean' ? value : wrong(key, 'true or false');
    },
    /** One of `allowed` (strings); anything else is an issue naming them. */
    oneOf<T extends string>(key: string, allowed: readonly T[]): T | undefined {
      const value = entry[key];
      if (!present(key)) return undefined;
      return (allowed as readonly unknown[]).includes(value)
        ? (value as T)
        : wrong(key, `one of ${allowed.join(', ')}`);
    },
  };
}

/** The problems of an entry's field issues: file, entry and field, what was expected and found. */
export function fieldIssueProblems(file: string, entry: string, issues: readonly FieldIssue[]): Problem[] {
  return issues.map((issue) => ({
    file,
    field: `${entry}: ${issue.field}`,
    message: `expected ${issue.expected}, got ${shortJson(issue.value)}; entry skipped`,
    severity: 'error' as const,
  }));
}

function shortJson(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** The fields of `record` that a format maps to nothing in lore: kept so an export back is lossless. */
export function unmappedFields(
  record: Record<string, unknown>,
  mapped: ReadonlySet<string>,
): Record<string, unknown> {
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) if (!mapped.has(key)) extra[key] = value;
  return extra;
}

type Converted<T> = { ok: true; imported: T } | { ok: false; problems: Problem[] };

/**
 * One source file's list of entries: each object goes through `convert`; anything else is
 * reported as `not <noun>` and skipped, so one bad entry never stops the others.
 */
export function collectEntries<T>(
  file: string,
  list: readonly unknown[],
  options: { label: (index: number) => string; noun: string },
  convert: (entry: Record<string, unknown>, label: string) => Converted<T>,
  into: { lessons: T[]; problems: Problem[] },
): void {
  list.forEach((entry, index) => {
    const label = options.label(index);
    if (!isRecord(entry)) {
      into.problems.push({ file, field: label, message: `not ${options.noun}; skipped`, severity: 'error' });
      return;
    }
    const result = convert(entry, label);
    if (result.ok) into.lessons.push(result.imported);
    else into.problems.push(...result.problems);
  });
}
