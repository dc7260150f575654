/**
 * Adding lore's hooks to an agent's hook settings (Claude Code `settings.json`, Codex
 * `hooks.json`: both use the same `{"hooks": {Event: [{matcher, hooks: [handler]}]}}` shape) and
 * taking them out again. Pure: settings text in, settings text out.
 *
 * - Only lore's handlers (recognised by `isOurs` on their command) are ever added or removed;
 *   every other key, hook and group stays as it was, in its place.
 * - Installing twice changes nothing; installing over an older lore (another bundle path, other
 *   matchers) replaces lore's handlers and nothing else.
 * - The file is edited in place (edit-json-text.ts): only lore's handlers, groups and events are
 *   inserted or cut out, so the user's formatting, numbers and key order stay byte for byte.
 * - A file that is not valid JSON, or whose `hooks` has the wrong shape, is refused with the
 *   file, the line and what is wrong; nothing is written.
 */
import { keepingByteOrderMark } from './byte-order-mark.js';
import { editJsonText } from './edit-json-text.js';
import type { JsonEdit } from './edit-json-text.js';
import { malformedConfig } from './malformed-config.js';
import { locateJsonError } from './locate-json-error.js';

export type HookHandler = { type: 'command'; command: string; timeout?: number };
export type HookGroup = { matcher?: string; hooks: HookHandler[] };
/** Event name to matcher groups, in the order they run. */
export type HookTable = Record<string, HookGroup[]>;

export type HookSettingsPlan = {
  /** The new file content (the old one, byte for byte, when nothing changes). */
  text: string;
  changed: boolean;
  /** `Event matcher` labels of lore's groups after the change. */
  installed: string[];
  /** `Event matcher` labels of lore's handlers that were taken out. */
  removed: string[];
};

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const label = (event: string, group: { matcher?: unknown }) =>
  typeof group.matcher === 'string' && group.matcher !== '' ? `${event} ${group.matcher}` : event;

/** The 1-based line of the first `"key"` in `text`, if any. */
function lineOfKey(text: string, key: string): number | undefined {
  const index = text.indexOf(JSON.stringify(key));
  return index < 0 ? undefined : text.slice(0, index).split('\n').length;
}

/** Parses the settings text and checks the parts lore touches. Empty or missing: `{}`. */
function parseSettings(text: string | undefined, file: string): Json {
  if (text === undefined || text.trim() === '') return {};
  const syntax = locateJsonError(text);
  if (syntax !== undefined) {
    throw malformedConfig(file, syntax.line, `not valid JSON (column ${syntax.column}: ${syntax.message})`);
  }
  const document: unknown = JSON.parse(text);
  if (!isObject(document)) throw malformedConfig(file, 1, 'the settings must be a JSON object');
  const hooks = document.hooks;
  if (hooks === undefined) return document;
  if (!isObject(hooks)) throw malformedConfig(file, lineOfKey(text, 'hooks'), '"hooks" must be an object');
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) {
      throw malformedConfig(
        file,
        lineOfKey(text, event),
        `"hooks.${event}" must be a list of matcher groups`,
      );
    }
    groups.forEach((group: unknown, index) => {
      if (!isObject(group) || !Array.isArray(group.hooks)) {
        throw malformedConfig(
          file,
          lineOfKey(text, event),
          `"hooks.${event}[${index}]" must be an object with a "hooks" list`,
        );
      }
    });
  }
  return document;
}

const isOurHandler = (handler: unknown, isOurs: (command: string) => boolean) =>
  isObject(handler) && typeof handler.command === 'string' && isOurs(handler.command);

/** lore's handlers in `groups`, each group cut down to them (groups without any left out). */
function ourGroups(groups: readonly Json[], isOurs: (command: string) => boolean): Json[] {
  return groups.flatMap((group) => {
    const handlers = (group.hooks as unknown[]).filter((handler) => isOurHandler(handler, isOurs));
    return handlers.length === 0 ? [] : [{ ...group, hooks: handlers }];
  });
}

/** `groups` without lore's handlers; a group left with no handler goes. */
function withoutOurs(groups: readonly Json[], isOurs: (command: string) => boolean): Json[] {
  return groups.flatMap((group) => {
    const handlers = group.hooks as unknown[];
    const kept = handlers.filter((handler) => !isOurHandler(handler, isOurs));
    if (kept.length === handlers.length) return [group];
    return kept.length === 0 ? [] : [{ ...group, hooks: kept }];
  });
}

/**
 * The edits that take lore's handlers out of `hooks` (highest index first, so each path still
 * holds): a group left with none goes, and an event left with no group goes when `dropEvent` says.
 */
function removalEdits(
  hooks: Record<string, Json[]>,
  isOurs: (command: string) => boolean,
  dropEvent: (event: string) => boolean,
): JsonEdit[] {
  return Object.entries(hooks).flatMap(([event, groups]): JsonEdit[] => {
    const kept = withoutOurs(groups, isOurs);
    if (kept.length === 0 && groups.length > 0 && dropEvent(event)) {
      return [{ op: 'remove', path: ['hooks', event] }];
    }
    const last = (list: readonly unknown[]) => [...list.keys()].reverse();
    return last(groups).flatMap((g): JsonEdit[] => {
      const handlers = groups[g]!.hooks as unknown[];
      const ours = last(handlers).filter((h) => isOurHandler(handlers[h], isOurs));
      if (ours.length === 0) return [];
      if (ours.length === handlers.length) return [{ op: 'remove', path: ['hooks', event, g] }];
      return ours.map((h): JsonEdit => ({ op: 'remove', path: ['hooks', event, g, 'hooks', h] }));
    });
  });
}

export function planHookInstall(
  text: string | undefined,
  desired: HookTable,
  isOurs: (command: string) => boolean,
  file: string,
): HookSettingsPlan {
  return keepingByteOrderMark(text, (body) => planHookInstallBody(body, desired, isOurs, file));
}

function planHookInstallBody(
  text: string | undefined,
  desired: HookTable,
  isOurs: (command: string) => boolean,
  file: string,
): HookSettingsPlan {
  const document = parseSettings(text, file);
  const hooks = (document.hooks ?? {}) as Record<string, Json[]>;
  const installed = Object.entries(desired).flatMap(([event, groups]) => groups.map((g) => label(event, g)));
  const events = new Set([...Object.keys(hooks), ...Object.keys(desired)]);
  const current = [...events].map((event) => [event, ourGroups(hooks[event] ?? [], isOurs)] as const);
  const removed = current.flatMap(([event, groups]) => groups.map((g) => label(event, g)));
  const same = current.every(
    ([event, groups]) => JSON.stringify(groups) === JSON.stringify(desired[event] ?? []),
  );
  if (same && text !== undefined) return { text, changed: false, installed, removed: [] };

  const next: Record<string, Json[]> = {};
  for (const [event, groups] of Object.entries(hooks)) next[event] = withoutOurs(groups, isOurs);
  for (const [event, groups] of Object.entries(desired)) next[event] = [...(next[event] ?? []), ...groups];
  for (const [event, groups] of Object.entries(next)) {
    if (groups.length === 0 && (hooks[event]?.length ?? 0) > 0) delete next[event];
  }
  const edits = removalEdits(hooks, isOurs, (event) => desired[event] === undefined);
  if (document.hooks === undefined) edits.push({ op: 'set', path: ['hooks'], value: desired });
  else {
    for (const [event, groups] of Object.entries(desired)) {
      if (hooks[event] === undefined) edits.push({ op: 'set', path: ['hooks', event], value: groups });
      else for (const group of groups) edits.push({ op: 'append', path: ['hooks', event], value: group });
    }
  }
  const updated = editJsonText(text, edits, { ...document, hooks: next });
  return {
    text: updated,
    changed: updated !== text,
    installed,
    removed: removed.filter((entry) => !installed.includes(entry)),
  };
}

export function planHookUninstall(
  text: string | undefined,
  isOurs: (command: string) => boolean,
  file: string,
): HookSettingsPlan {
  return keepingByteOrderMark(text, (body) => planHookUninstallBody(body, isOurs, file));
}

function planHookUninstallBody(
  text: string | undefined,
  isOurs: (command: string) => boolean,
  file: string,
): HookSettingsPlan {
  const document = parseSettings(text, file);
  const hooks = (document.hooks ?? {}) as Record<string, Json[]>;
  const removed = Object.entries(hooks).flatMap(([event, groups]) =>
    ourGroups(groups, isOurs).map((g) => label(event, g)),
  );
  if (removed.length === 0 || text === undefined) {
    return { text: text ?? '', changed: false, installed: [], removed: [] };
  }
  const next: Record<string, Json[]> = {};
  for (const [event, groups] of Object.entries(hooks)) {
    const kept = withoutOurs(groups, isOurs);
    if (kept.length > 0 || groups.length === 0) next[event] = kept;
  }
  // An emptied `hooks` stays here: the user may have had it before the install. `lore uninstall`
  // takes it out when its ledger says the install created it (src/cli/install-containers.ts).
  const updated = editJsonText(
    text,
    removalEdits(hooks, isOurs, () => true),
    { ...document, hooks: next },
  );
  return { text: updated, changed: true, installed: [], removed };
}
