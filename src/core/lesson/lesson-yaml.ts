/**
 * lesson.yaml text <-> Lesson record. Pure: text in, data out.
 *
 * Parsing never throws on bad input: it returns problems with the file, the 1-based line and the
 * field. Editing goes through the YAML document model, so comments, key order and unknown fields
 * a person wrote survive lore's own writes.
 */
import { Document, isMap, isPair, isScalar, LineCounter, Pair, parseDocument, Scalar } from 'yaml';
import type { Node as YamlNode } from 'yaml';
import type { Problem } from '../errors.js';
import { readCanonicalYaml } from './canonical-yaml.js';
import { KNOWN_LESSON_KEYS, LessonSchema } from './schema.js';
import type { Lesson } from './schema.js';
import { firstUnclosedOpener, syntaxErrorLine } from './yaml-error-line.js';

export const LESSON_SCHEMA_COMMENT = ' yaml-language-server: $schema=../../schema/lesson.schema.json';

export type ParsedLesson =
  { ok: true; lesson: Lesson; warnings: Problem[] } | { ok: false; problems: Problem[] };

const TO_STRING = { lineWidth: 0, minContentWidth: 0 } as const;

export function parseLessonYaml(text: string, file: string): ParsedLesson {
  // The files lore writes take the fast path; anything it is unsure of, anything invalid and
  // anything that warns (unknown fields, ...) goes through the full parser, which has the lines.
  const canonical = readCanonicalYaml(text);
  if (canonical !== undefined && Object.keys(canonical).every((key) => KNOWN_LESSON_KEYS.includes(key))) {
    const checked = LessonSchema.safeParse(canonical);
    if (
      checked.success &&
      !(checked.data.status === 'superseded' && checked.data.supersededBy === undefined)
    ) {
      return { ok: true, lesson: checked.data, warnings: [] };
    }
  }
  return parseLessonYamlFully(text, file);
}

/**
 * A parsed document's value, or why there is none: `toJS` throws on what parsed cleanly but cannot
 * be built, an alias bomb ("billion laughs") above all. Every YAML file lore reads goes through
 * this, so such a file is one named problem, not an internal error of every command.
 */
export function yamlValue(doc: Pick<Document, 'toJS'>): { value: unknown } | { error: string } {
  try {
    return { value: doc.toJS() };
  } catch (error) {
    return { error: firstLine(error instanceof Error ? error.message : String(error)) };
  }
}

/** The full parser: every YAML construct, problems with their lines. */
export function parseLessonYamlFully(text: string, file: string): ParsedLesson {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false });
  const lineOf = (offset: number | undefined): number | undefined =>
    offset === undefined ? undefined : lineCounter.linePos(offset).line;

  if (doc.errors.length > 0) {
    const opener = firstUnclosedOpener(text);
    return {
      ok: false,
      problems: doc.errors.map((error) => {
        const { line, note } = syntaxErrorLine(error.pos[0], opener, lineCounter);
        return {
          file,
          line,
          message: `invalid YAML: ${firstLine(error.message)}${note}`,
          severity: 'error' as const,
        };
      }),
    };
  }
  const built = yamlValue(doc);
  if ('error' in built)
    return {
      ok: false,
      problems: [{ file, line: 1, message: `invalid YAML: ${built.error}`, severity: 'error' }],
    };
  const raw = built.value;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return {
      ok: false,
      problems: [{ file, line: 1, message: 'expected a mapping of lesson fields', severity: 'error' }],
    };
  }

  const nodeLine = (path: readonly PropertyKey[]): number | undefined => {
    for (let depth = path.length; depth > 0; depth -= 1) {
      const node = doc.getIn(path.slice(0, depth) as unknown[], true) as YamlNode | undefined;
      if (node?.range) return lineOf(node.range[0]);
      if (depth === path.length) {
        const keyLine = keyLineOf(doc, path.slice(0, depth), lineOf);
        if (keyLine !== undefined) return keyLine;
      }
    }
    return 1;
  };

  const result = LessonSchema.safeParse(raw);
  if (!result.success) {
    return {
      ok: false,
      problems: result.error.issues.map((issue) => ({
        file,
        line: nodeLine(issue.path),
        field: issue.path.length > 0 ? issue.path.join('.') : undefined,
        message: describeIssue(issue.path, issue.message, raw as Record<string, unknown>),
        severity: 'error' as const,
      })),
    };
  }

  const warnings: Problem[] = [];
  for (const key of Object.keys(raw)) {
    if (!KNOWN_LESSON_KEYS.includes(key)) {
      warnings.push({
        file,
        line: keyLineOf(doc, [key], lineOf),
        field: key,
        message: `unknown field "${key}" is kept as is but not used by lore`,
        severity: 'warning',
      });
    }
  }
  const lesson = result.data;
  if (lesson.status === 'superseded' && lesson.supersededBy === undefined) {
    warnings.push({
      file,
      line: nodeLine(['status']),
      field: 'status',
      message: 'status is superseded but supersededBy is missing',
      severity: 'warning',
    });
  }
  return { ok: true, lesson, warnings };
}

function describeIssue(path: readonly PropertyKey[], message: string, raw: Record<string, unknown>): string {
  const top = path[0];
  if (path.length === 1 && typeof top === 'string' && !(top in raw)) return `missing required field "${top}"`;
  return message;
}

function keyLineOf(
  doc: Document,
  path: readonly PropertyKey[],
  lineOf: (offset: number | undefined) => number | undefined,
): number | undefined {
  const parent = path.length === 1 ? doc.contents : doc.getIn(path.slice(0, -1) as unknown[], true);
  if (!isMap(parent)) return undefined;
  const last = path[path.length - 1];
  for (const item of parent.items) {
    if (isScalar(item.key) && item.key.value === last) return lineOf(item.key.range?.[0]);
  }
  return undefined;
}

function firstLine(message: string): string {
  return message.split('\n')[0] ?? message;
}

/** Keys in the order lore writes them; unknown keys keep their place after these. */
const ORDER = KNOWN_LESSON_KEYS;

/** Empty lists and unset fields are left out of the file, to keep it short. */
function isOmitted(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  return Array.isArray(value) && value.length === 0;
}

/** Renders a new lesson.yaml. */
export function serializeLesson(lesson: Lesson): string {
  const record = lesson as Record<string, unknown>;
  const ordered: Record<string, unknown> = {};
  for (const key of ORDER) if (!isOmitted(record[key])) ordered[key] = record[key];
  for (const key of Object.keys(record)) {
    if (!ORDER.includes(key) && !isOmitted(record[key])) ordered[key] = record[key];
  }
  const doc = new Document(ordered);
  doc.commentBefore = LESSON_SCHEMA_COMMENT;
  styleMultiline(doc);
  return doc.toString(TO_STRING);
}

/**
 * Applies a patch to existing lesson.yaml text, keeping comments, unknown fields and the order of
 * the keys already there. `undefined` or an empty array removes a key.
 */
export function patchLessonYaml(text: string, patch: Record<string, unknown>): string {
  const doc: Document = parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length > 0 || !isMap(doc.contents)) {
    throw new Error('cannot patch a lesson file that does not parse; fix it first (lore check)');
  }
  const map = doc.contents;
  for (const [key, value] of Object.entries(patch)) {
    const index = map.items.findIndex((item) => isPair(item) && isScalar(item.key) && item.key.value === key);
    if (isOmitted(value)) {
      if (index >= 0) map.items.splice(index, 1);
      continue;
    }
    const node = doc.createNode(value);
    if (index >= 0) {
      const pair = map.items[index];
      if (pair) {
        // keep a comment written on the same line as the old value
        const old = pair.value as { comment?: string | null } | null;
        if (old?.comment && isScalar(node)) node.comment = old.comment;
        pair.value = node;
      }
      continue;
    }
    map.items.splice(insertionIndex(map.items, key), 0, new Pair(new Scalar(key), node));
  }
  if (!text.includes('yaml-language-server:')) {
    doc.commentBefore = doc.commentBefore
      ? `${LESSON_SCHEMA_COMMENT}\n${doc.commentBefore}`
      : LESSON_SCHEMA_COMMENT;
  }
  styleMultiline(doc);
  return doc.toString(TO_STRING);
}

function insertionIndex(items: readonly unknown[], key: string): number {
  const rank = ORDER.indexOf(key);
  if (rank < 0) return items.length;
  let position = 0;
  items.forEach((item, index) => {
    if (!isPair(item) || !isScalar(item.key)) return;
    const existing = ORDER.indexOf(String(item.key.value));
    if (existing >= 0 && existing < rank) position = index + 1;
  });
  return position;
}

/** Multi-line strings as literal blocks (`|`), which read well and diff well in git. */
function styleMultiline(doc: Document): void {
  if (!isMap(doc.contents)) return;
  for (const item of doc.contents.items) {
    if (isScalar(item.value) && typeof item.value.value === 'string' && item.value.value.includes('\n')) {
      item.value.type = Scalar.BLOCK_LITERAL;
    }
  }
}
