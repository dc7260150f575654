/**
 * The top-level members an install added to a settings file (`mcpServers: {}` around lore's
 * server, Cursor's `"version": 1` and `hooks`), and taking them out again on uninstall when lore's
 * entries were all they held, so install then uninstall gives back the file's bytes. A member the
 * user had before the install is never on the list, so it stays, empty or not. Pure: text in, text out.
 */
import { keepingByteOrderMark } from './byte-order-mark.js';
import { editJsonText } from './edit-json-text.js';
import type { JsonEdit } from './edit-json-text.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function parseObject(text: string | undefined): Json | undefined {
  const body = text?.replace(/^\uFEFF/, '');
  if (body === undefined || body.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(body);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The top-level keys `after` has and `before` did not (none when either is not a JSON object). */
export function addedTopLevelKeys(before: string | undefined, after: string): string[] {
  const old = parseObject(before);
  const next = parseObject(after);
  if (old === undefined || next === undefined) return [];
  return Object.keys(next).filter((key) => !(key in old));
}

const isEmptyContainer = (value: unknown): boolean =>
  (Array.isArray(value) && value.length === 0) || (isObject(value) && Object.keys(value).length === 0);

/**
 * `text` without the members of `created` that are empty containers now; and, once every created
 * container is gone, without the created scalars too (Cursor's `version`, which only its `hooks`
 * needed). A created container still holding something (a server the user added since) stays, and
 * so do the scalars beside it. `dropped`: the members of `created` the text no longer has.
 */
export function dropCreatedKeys(
  text: string,
  created: readonly string[],
): { text: string; dropped: string[] } {
  return keepingByteOrderMark(text, (body) => dropCreatedKeysBody(body ?? '', created));
}

function dropCreatedKeysBody(text: string, created: readonly string[]): { text: string; dropped: string[] } {
  const document = parseObject(text);
  if (document === undefined || created.length === 0) return { text, dropped: [] };
  const present = created.filter((key) => key in document);
  const containers = present.filter((key) => isObject(document[key]) || Array.isArray(document[key]));
  const empty = containers.filter((key) => isEmptyContainer(document[key]));
  const scalars =
    empty.length === containers.length ? present.filter((key) => !containers.includes(key)) : [];
  const removing = [...empty, ...scalars];
  // gone: taken out here, or already
  const dropped = created.filter((key) => !(key in document) || removing.includes(key));
  if (removing.length === 0) return { text, dropped };
  const expected = Object.fromEntries(Object.entries(document).filter(([key]) => !removing.includes(key)));
  const edits = removing.map((key): JsonEdit => ({ op: 'remove', path: [key] }));
  return { text: editJsonText(text, edits, expected), dropped };
}
