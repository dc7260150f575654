/**
 * Request bodies and query strings to the store's inputs, checked field by field so a wrong type
 * is a 400 that names the field, never a crash further down.
 */
import { DRAFT_FIELDS } from '../../store/lessons/lesson-writes.js';
import type { LessonDraft } from '../../store/lessons/lesson-writes.js';
import { HttpError } from './http-error.js';

const LIST_FIELDS = new Set(['tools', 'commands', 'paths', 'tags', 'stack']);
const NUMBER_FIELDS = new Set(['priority', 'confidence']);
const BOOLEAN_FIELDS = new Set(['needsReview']);

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

/** The lesson fields of a body; `extra` names the other keys the route takes. */
export function draftFromBody(body: Record<string, unknown>, extra: readonly string[]): LessonDraft {
  const draft: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (extra.includes(key)) continue;
    if (!(DRAFT_FIELDS as readonly string[]).includes(key)) {
      throw new HttpError(400, 'unknown-field', `unknown field "${key}"`, {
        hint: `lesson fields: ${DRAFT_FIELDS.join(', ')}${extra.length > 0 ? `; also ${extra.join(', ')}` : ''}`,
      });
    }
    if (value === null || value === undefined) continue;
    if (LIST_FIELDS.has(key)) {
      if (!Array.isArray(value) || !value.every((item) => typeof item === 'string'))
        throw new HttpError(400, 'bad-field', `${key} must be a list of strings`);
    } else if (NUMBER_FIELDS.has(key)) {
      if (typeof value !== 'number') throw new HttpError(400, 'bad-field', `${key} must be a number`);
    } else if (BOOLEAN_FIELDS.has(key)) {
      if (typeof value !== 'boolean') throw new HttpError(400, 'bad-field', `${key} must be true or false`);
    } else if (key === 'evidence') {
      if (!Array.isArray(value) || !value.every((item) => item !== null && typeof item === 'object'))
        throw new HttpError(400, 'bad-field', 'evidence must be a list of {kind, ref}');
    } else if (typeof value !== 'string') {
      throw new HttpError(400, 'bad-field', `${key} must be a string`);
    }
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
  if (value === null || value === '') return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < range.min || number > range.max)
    throw new HttpError(
      400,
      'bad-parameter',
      `${name} must be an integer from ${range.min} to ${range.max}; got "${value}"`,
    );
  return number;
}
