/**
 * lore's entries in Cursor's `hooks.json` (`{"version": 1, "hooks": {event: [{command, matcher?}]}}`:
 * flat entries, not Claude's matcher groups) and out again. Pure: text in, text out.
 *
 * - Only lore's entries (recognised by `isOurs` on their command) are added or removed; every other
 *   key and entry stays, in its place.
 * - Installing twice changes nothing; installing over an older lore replaces lore's entries only.
 * - The file is edited in place (edit-json-text.ts): only lore's entries (and a missing `version`)
 *   are inserted or cut out; the user's formatting, numbers and key order stay byte for byte.
 * - Not JSON, a `version` other than 1, or `hooks` of the wrong shape: refused with the file, the line
 *   and what is wrong; nothing is written.
 */
import { keepingByteOrderMark } from './byte-order-mark.js';
import { editJsonText } from './edit-json-text.js';
import type { JsonEdit } from './edit-json-text.js';
import { malformedConfig } from './malformed-config.js';
import { locateJsonError } from './locate-json-error.js';

export type CursorHookEntry = { command: string; matcher?: string; timeout?: number };
/** Event name to lore's entries for it. */
export type CursorHookTable = Record<string, CursorHookEntry[]>;

export type CursorHooksPlan = {
  text: string;
  changed: boolean;
  /** `event matcher` labels of lore's entries after the change (install) or taken out (uninstall). */
  entries: string[];
};

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const label = (event: string, entry: Json) =>
  typeof entry.matcher === 'string' && entry.matcher !== '' ? `${event} ${entry.matcher}` : event;

function lineOfKey(text: string, key: string): number | undefined {
  const index = text.indexOf(JSON.stringify(key));
  return index < 0 ? undefined : text.slice(0, index).split('\n').length;
}

function parseHooksFile(text: string | undefined, file: string): Json {
  if (text === undefined || text.trim() === '') return {};
  const syntax = locateJsonError(text);
  if (syntax !== undefined) {
    throw malformedConfig(file, syntax.line, `not valid JSON (column ${syntax.column}: ${syntax.message})`);
  }
  const document: unknown = JSON.parse(text);
  if (!isObject(document)) throw malformedConfig(file, 1, 'hooks.json must be a JSON object');
  if (document.version !== undefined && document.version !== 1) {
    throw malformedConfig(
      file,
      lineOfKey(text, 'version'),
      `"version" is ${JSON.stringify(document.version)}; lore writes version 1 hooks only`,
    );
  }
  const hooks = document.hooks;
  if (hooks === undefined) return document;
  if (!isObject(hooks)) throw malformedConfig(file, lineOfKey(text, 'hooks'), '"hooks" must be an object');
  for (const [event, entries] of Object.entries(hooks)) {
    if (!Array.isArray(entries) || !entries.every(isObject)) {
      throw malformedConfig(
        file,
        lineOfKey(text, event),
        `"hooks.${event}" must be a list of {"command": ...} entries`,
      );
    }
  }
  return document;
}

const isOurEntry = (entry: Json, isOurs: (command: string) => boolean) =>
  typeof entry.command === 'string' && isOurs(entry.command);

/**
 * The edits that take lore's entries out of `hooks`, highest index first; an event left with none
 * goes when `dropEvent` says.
 */
function removalEdits(
  hooks: Record<string, Json[]>,
  isOurs: (command: string) => boolean,
  dropEvent: (event: string) => boolean,
): JsonEdit[] {
  return Object.entries(hooks).flatMap(([event, list]): JsonEdit[] => {
    const ours = [...list.keys()].reverse().filter((index) => isOurEntry(list[index]!, isOurs));
    if (ours.length === 0) return [];
    if (ours.length === list.length && dropEvent(event)) return [{ op: 'remove', path: ['hooks', event] }];
    return ours.map((index): JsonEdit => ({ op: 'remove', path: ['hooks', event, index] }));
  });
}

export function planCursorHooksInstall(
  text: string | undefined,
  desired: CursorHookTable,
  isOurs: (command: string) => boolean,
  file: string,
): CursorHooksPlan {
  return keepingByteOrderMark(text, (body) => planCursorHooksInstallBody(body, desired, isOurs, file));
}

function planCursorHooksInstallBody(
  text: string | undefined,
  desired: CursorHookTable,
  isOurs: (command: string) => boolean,
  file: string,
): CursorHooksPlan {
  const document = parseHooksFile(text, file);
  const hooks = (document.hooks ?? {}) as Record<string, Json[]>;
  const entries = Object.entries(desired).flatMap(([event, list]) => list.map((e) => label(event, e)));
  const events = new Set([...Object.keys(hooks), ...Object.keys(desired)]);
  const same = [...events].every(
    (event) =>
      JSON.stringify((hooks[event] ?? []).filter((e) => isOurEntry(e, isOurs))) ===
      JSON.stringify(desired[event] ?? []),
  );
  if (same && text !== undefined && document.version === 1) return { text, changed: false, entries };
  const next: Record<string, Json[]> = {};
  for (const [event, list] of Object.entries(hooks)) next[event] = list.filter((e) => !isOurEntry(e, isOurs));
  for (const [event, list] of Object.entries(desired)) next[event] = [...(next[event] ?? []), ...list];
  for (const [event, list] of Object.entries(next)) {
    if (list.length === 0 && (hooks[event]?.length ?? 0) > 0) delete next[event];
  }
  const edits = removalEdits(hooks, isOurs, (event) => desired[event] === undefined);
  if (document.version === undefined) edits.push({ op: 'set', path: ['version'], value: 1, first: true });
  if (document.hooks === undefined) edits.push({ op: 'set', path: ['hooks'], value: desired });
  else {
    for (const [event, list] of Object.entries(desired)) {
      if (hooks[event] === undefined) edits.push({ op: 'set', path: ['hooks', event], value: list });
      else for (const entry of list) edits.push({ op: 'append', path: ['hooks', event], value: entry });
    }
  }
  const { version: _version, hooks: _hooks, ...rest } = document;
  const updated = editJsonText(text, edits, { version: 1, ...rest, hooks: next });
  return { text: updated, changed: updated !== text, entries };
}

export function planCursorHooksUninstall(
  text: string | undefined,
  isOurs: (command: string) => boolean,
  file: string,
): CursorHooksPlan {
  return keepingByteOrderMark(text, (body) => planCursorHooksUninstallBody(body, isOurs, file));
}

function planCursorHooksUninstallBody(
  text: string | undefined,
  isOurs: (command: string) => boolean,
  file: string,
): CursorHooksPlan {
  const document = parseHooksFile(text, file);
  const hooks = (document.hooks ?? {}) as Record<string, Json[]>;
  const entries = Object.entries(hooks).flatMap(([event, list]) =>
    list.filter((e) => isOurEntry(e, isOurs)).map((e) => label(event, e)),
  );
  if (entries.length === 0 || text === undefined) return { text: text ?? '', changed: false, entries: [] };
  const next: Record<string, Json[]> = {};
  for (const [event, list] of Object.entries(hooks)) {
    const kept = list.filter((e) => !isOurEntry(e, isOurs));
    if (kept.length > 0 || list.length === 0) next[event] = kept;
  }
  const updated = editJsonText(
    text,
    removalEdits(hooks, isOurs, () => true),
    { ...document, hooks: next },
  );
  return { text: updated, changed: true, entries };
}
