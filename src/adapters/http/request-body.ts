/**
 * Request bodies and query strings to the store's inputs, checked field by field so a wrong type
 * is a 400 that names the field, never a crash further down.
 */
import { z } from 'zod';
import { DRAFT_FIELDS, LessonDraftSchema } from '../../core/lesson/draft-schema.js';
import type { LessonDraft } from '../../core/lesson/draft-schema.js';
import { HttpError } from './http-error.js';

type Expected = { accepts(value: unknown): boolean; text: string };

/** The JSON type a draft field takes, read off the draft schema. */
function expectedOf(field: z.ZodType): Expected {
  const schema = field instanceof z.ZodOptional ? (field.unwrap() as z.ZodType) : field;
  if (schema instanceof z.ZodBoolean)
    return { accepts: (v) => typeof v === 'boolean', text: 'true or false' };
  if (schema instanceof z.ZodNumber) return { accepts: (v) => typeof v === 'number', text: 'a number' };
  if (schema instanceof z.ZodArray && schema.element instanceof z.ZodObject) {
    const shape = schema.element.shape as Record<string, z.ZodType>;
    const required = Object.keys(shape).filter((key) => !(shape[key] instanceof z.ZodOptional));
    return {
      accepts: (v) => Array.isArray(v) && v.every((item) => item !== null && typeof item === 'object'),
      text: `a list of {${required.join(', ')}}`,
    };
  }
  if (schema instanceof z.ZodArray)
    return {
      accepts: (v) => Array.isArray(v) && v.every((item) => typeof item === 'string'),
      text: 'a list of strings',
    };
  return { accepts: (v) => typeof v === 'string', text: 'a string' };
}

let expected: Map<string, Expected> | undefined;

export function parseJsonBody(body: string): Record<string, unknown> {
  if (body.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    throw new HttpError(400, 'bad-json', `the body is not JSON: ${(error as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new HttpError(400, 'bad-json', 'the body must be a JSON object');
  return value as Record<string, unknown>;
}

/**
 * The lesson fields of a body; `extra` names the other keys the route takes. A key that is no
 * draft field, or a value of the wrong JSON type, is a 400 here; a value the lesson rules refuse
 * (a priority of 11, an absolute path) is the store's 422, worded the same for every surface.
 */
export function draftFromBody(body: Record<string, unknown>, extra: readonly string[]): LessonDraft {
  expected ??= new Map(
    Object.entries(LessonDraftSchema().shape).map(([key, field]) => [key, expectedOf(field)]),
  );
  const draft: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (extra.includes(key)) continue;
    const field = expected.get(key);
    if (field === undefined) {
      throw new HttpError(400, 'unknown-field', `unknown field "${key}"`, {
        hint: `lesson fields: ${DRAFT_FIELDS.join(', ')}${extra.length > 0 ? `; also ${extra.join(', ')}` : ''}`,
      });
    }
    if (value === null || value === undefined) continue;
    if (!field.accepts(value)) throw new HttpError(400, 'bad-field', `${key} must be ${field.text}`);
    draft[key] = value;
  }
  return draft as LessonDraft;
}

export function stringField(
  body: Record<string, unknown>,
  key: string,
  required = false,
): string | undefined {
  const value = body[key];
  if (value === undefined || value === null) {
    if (required) throw new HttpError(400, 'missing-field', `the body needs "${key}"`);
    return undefined;
  }
  if (typeof value !== 'string') throw new HttpError(400, 'bad-field', `${key} must be a string`);
  // no store keeps a NUL (PostgreSQL refuses it in text): a 400 here, never a 500 further down
  if (value.includes('\u0000')) throw new HttpError(400, 'bad-field', `${key} must not hold a NUL character`);
  return value;
}

export function choiceParam<T extends string>(
  value: string | null | undefined,
  name: string,
  choices: readonly T[],
): T | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  if (!(choices as readonly string[]).includes(value))
    throw new HttpError(400, 'bad-parameter', `${name} must be one of ${choices.join(', ')}; got "${value}"`);
  return value as T;
}

export function intParam(
  value: string | null,
  name: string,
  range: { min: number; max: number },
): number | undefined {
  return rangeParam(value, name, range, 'an integer');
}

export function numberParam(
  value: string | null,
  name: string,
  range: { min: number; max: number },
): number | undefined {
  return rangeParam(value, name, range, 'a number');
}

/** A numeric query parameter within a range, or a 400 that says which numbers it takes. */
function rangeParam(
  value: string | null,
  name: string,
  range: { min: number; max: number },
  kind: 'an integer' | 'a number',
): number | undefined {
  if (value === null || value === '') return undefined;
  const number = Number(value);
  const valid = kind === 'an integer' ? Number.isInteger(number) : Number.isFinite(number);
  if (!valid || number < range.min || number > range.max)
    throw new HttpError(
      400,
      'bad-parameter',
      `${name} must be ${kind} from ${range.min} to ${range.max}; got "${value}"`,
    );
  return number;
}

/**
 * The `:name` parts of a matched route path, percent-decoded. A malformed escape (a stray `%`, a
 * truncated UTF-8 sequence) is the client's mistake, a 400 naming the parameter, never a 500.
 */
export function pathParams(names: readonly string[], match: RegExpExecArray | null): Record<string, string> {
  const params: Record<string, string> = {};
  names.forEach((name, i) => {
    const raw = match?.[i + 1] ?? '';
    try {
      params[name] = decodeURIComponent(raw);
    } catch {
      throw new HttpError(400, 'bad-parameter', `the path's ${name} "${raw}" is not valid percent-encoding`, {
        hint: 'encode it with encodeURIComponent (a literal % is %25)',
      });
    }
  });
  return params;
}

/** Refuses a query parameter the route does not read, naming the ones it does. */
export function checkQueryNames(query: URLSearchParams, accepted: readonly string[], route: string): void {
  for (const name of new Set(query.keys())) {
    if (accepted.includes(name)) continue;
    throw new HttpError(400, 'unknown-parameter', `${route} has no query parameter "${name}"`, {
      hint: accepted.length > 0 ? `it takes: ${accepted.join(', ')}` : 'it takes no query parameters',
    });
  }
}

/** The Persistent Learnings Layer's pattern types (its `pattern_type` column). */
export const COIA_PATTERN_TYPES = ['solution', 'gotcha', 'best-practice', 'constraint'] as const;
const COIA_SOURCES = [
  ['source_task_id', undefined],
  ['source_outcome_id', 'source outcome'],
  ['source_discovery_id', 'source discovery'],
] as const;

/**
 * A COIA-shaped body (the Persistent Learnings Layer's `POST /api/learnings`: title, context,
 * observation, implication, action, tags, domain, pattern_type, source ids) as lore's draft keys.
 * lore has no domain or pattern-type field: they become the tags `domain:<v>` and `pattern:<v>`
 * (what `?domain=` filters on), and the source ids task evidence.
 */
export function fromCoiaBody(body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...body };
  const text = (key: string): string | undefined => {
    const value = out[key];
    delete out[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string' || value.trim() === '')
      throw new HttpError(400, 'bad-field', `${key} must be a non-empty string`);
    return value.trim();
  };
  const title = text('title');
  if (title !== undefined) {
    if (out.summary !== undefined)
      throw new HttpError(400, 'bad-field', 'give summary or title (its COIA name), not both');
    out.summary = title;
  }
  const tags = (extra: string) => {
    const current = Array.isArray(out.tags)
      ? (out.tags as unknown[])
      : out.tags === undefined
        ? []
        : undefined;
    if (current === undefined) throw new HttpError(400, 'bad-field', 'tags must be a list of strings');
    out.tags = [...current, extra];
  };
  const domain = text('domain');
  if (domain !== undefined) tags(`domain:${domain.toLowerCase()}`);
  const pattern = text('pattern_type');
  if (pattern !== undefined) {
    if (!(COIA_PATTERN_TYPES as readonly string[]).includes(pattern))
      throw new HttpError(
        400,
        'bad-field',
        `pattern_type must be one of ${COIA_PATTERN_TYPES.join(', ')}; got "${pattern}"`,
      );
    tags(`pattern:${pattern}`);
  }
  for (const [key, note] of COIA_SOURCES) {
    const ref = text(key);
    if (ref === undefined) continue;
    const evidence = Array.isArray(out.evidence) ? (out.evidence as unknown[]) : [];
    out.evidence = [...evidence, { kind: 'task', ref, ...(note === undefined ? {} : { note }) }];
  }
  return out;
}

/** Absent, null and an empty list are one value: a field the lesson does not have. */
function comparable(value: unknown): string {
  return value === undefined || value === null || (Array.isArray(value) && value.length === 0)
    ? 'null'
    : JSON.stringify(value);
}

/**
 * The fields of `ifUnchanged` (the values they had when an edit began) that the lesson no longer
 * holds: someone else changed them since. A key that is no lesson field is a 400.
 */
export function changedSince(ifUnchanged: unknown, current: Record<string, unknown>): string[] {
  if (ifUnchanged === undefined || ifUnchanged === null) return [];
  if (typeof ifUnchanged !== 'object' || Array.isArray(ifUnchanged))
    throw new HttpError(400, 'bad-field', 'ifUnchanged must be an object of field names and values');
  return Object.entries(ifUnchanged).flatMap(([key, value]) => {
    if (!(DRAFT_FIELDS as readonly string[]).includes(key))
      throw new HttpError(400, 'unknown-field', `unknown field "${key}" in ifUnchanged`, {
        hint: `lesson fields: ${DRAFT_FIELDS.join(', ')}`,
      });
    return comparable(value) === comparable(current[key]) ? [] : [key];
  });
}
