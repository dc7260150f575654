/**
 * lore's MCP server in Codex's `config.toml`, in and out, by editing exact spans of the file.
 *
 * The file is parsed with toml-eslint-parser (a maintained TOML 1.0 parser that gives every
 * table, key and comment its source range), never read line by line: lore's entry may be a
 * `[mcp_servers.lore]` table (with subtables), an inline table (`mcp_servers.lore = {…}`), dotted
 * keys (`mcp_servers.lore.command = …`) or a `lore = …` key under `[mcp_servers]`. Every span that
 * defines it is replaced or removed; everything else (comments, order, other servers) keeps its
 * bytes. The result is parsed again and must hold the same data as before except lore's entry, or
 * nothing is written: a duplicate key or a broken file is never the outcome of an install.
 */
import { getStaticTOMLValue, parseTOML } from 'toml-eslint-parser';
import type { AST } from 'toml-eslint-parser';
import { LoreError } from '../errors.js';
import { malformedConfig } from './malformed-config.js';

export const TOML_SERVER_NAME = 'lore';

export type TomlServerEntry = { command: string; args: string[] };
export type TomlPlan = { changed: boolean; text: string };

type Json = Record<string, unknown>;
/** A stretch of whole lines defining lore's entry; a key keeps the comment that ended its line. */
type Span = { start: number; end: number; kind: 'table' | 'key'; prefix: string; comment: string };

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function parse(text: string, file: string): AST.TOMLProgram {
  try {
    return parseTOML(text);
  } catch (error) {
    const { lineNumber, message } = error as { lineNumber?: number; message: string };
    throw malformedConfig(file, lineNumber, `not valid TOML (${message})`);
  }
}

function keyNames(key: AST.TOMLKey): string[] {
  return key.keys.map((part) => (part.type === 'TOMLBare' ? part.name : part.value));
}

const startsWith = (path: readonly string[], prefix: readonly string[]) =>
  prefix.every((part, i) => path[i] === part);

/** From the start of the line holding `start` to the end of the line holding `end`, newline included. */
function wholeLines(text: string, start: number, end: number): { start: number; end: number } {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const newline = text.indexOf('\n', end);
  return { start: lineStart, end: newline < 0 ? text.length : newline + 1 };
}

/** Every span of the file that defines `mcp_servers.lore` (or something under it). */
function loreSpans(text: string, program: AST.TOMLProgram, file: string): Span[] {
  const spans: Span[] = [];
  const lore = ['mcp_servers', TOML_SERVER_NAME];
  for (const node of program.body[0]?.body ?? []) {
    if (node.type === 'TOMLTable') {
      if (startsWith(node.resolvedKey.map(String), lore)) {
        spans.push({
          ...wholeLines(text, node.range[0], node.range[1]),
          kind: 'table',
          prefix: '',
          comment: '',
        });
        continue;
      }
      const table = node.resolvedKey.map(String);
      for (const item of node.body) {
        const path = [...table, ...keyNames(item.key)];
        if (startsWith(path, lore)) spans.push(keySpan(text, item, table, file));
        else if (lore.length > path.length && startsWith(lore, path) && item.value.type === 'TOMLInlineTable')
          throw inlineParent(file, item);
      }
    } else {
      const path = keyNames(node.key);
      if (startsWith(path, lore)) spans.push(keySpan(text, node, [], file));
      else if (startsWith(lore, path) && node.value.type === 'TOMLInlineTable')
        throw inlineParent(file, node);
    }
  }
  return spans;
}

function keySpan(text: string, node: AST.TOMLKeyValue, table: readonly string[], file: string): Span {
  const lines = wholeLines(text, node.range[0], node.range[1]);
  if (text.slice(lines.start, node.range[0]).trim() !== '')
    throw malformedConfig(file, node.loc.start.line, 'lore cannot tell where its entry starts on this line');
  // The key as this place spells it, relative to its table: `mcp_servers.lore` or `lore`.
  const prefix = table.length === 0 ? `mcp_servers.${TOML_SERVER_NAME}` : TOML_SERVER_NAME;
  const comment = text
    .slice(node.range[1], lines.end)
    .replace(/\r?\n$/, '')
    .trimEnd();
  return { ...lines, kind: 'key', prefix, comment: comment.trim().startsWith('#') ? comment : '' };
}

/** `mcp_servers = { lore = {…}, … }`: editing inside would mean rewriting the user's inline table. */
function inlineParent(file: string, node: AST.TOMLKeyValue): LoreError {
  return new LoreError(
    'invalid',
    `${file}:${node.loc.start.line}: the MCP servers are one inline table; lore edits only its own entry`,
    {
      hint: 'write them as [mcp_servers.NAME] tables (or mcp_servers.NAME = {…} lines), then run the command again',
      details: { file, line: node.loc.start.line },
    },
  );
}

function tomlString(value: string): string {
  return JSON.stringify(value);
}

export function tomlServerTable(entry: TomlServerEntry): string {
  return [
    `[mcp_servers.${TOML_SERVER_NAME}]`,
    `command = ${tomlString(entry.command)}`,
    `args = [${entry.args.map(tomlString).join(', ')}]`,
  ].join('\n');
}

function inlineEntry(prefix: string, entry: TomlServerEntry): string {
  return `${prefix} = { command = ${tomlString(entry.command)}, args = [${entry.args.map(tomlString).join(', ')}] }`;
}

/** The text with `spans` cut out and, when given, `replacement` where the first one was. */
function splice(text: string, spans: readonly Span[], replacement: string | undefined): string {
  let out = '';
  let at = 0;
  for (const [index, span] of [...spans].sort((a, b) => a.start - b.start).entries()) {
    out += text.slice(at, span.start);
    if (index === 0 && replacement !== undefined) out += `${replacement}${span.comment}\n`;
    at = span.end;
    // A removed block leaves no second blank line behind.
    while (text[at] === '\n' && (out === '' || out.endsWith('\n\n'))) at += 1;
  }
  return out + text.slice(at);
}

function withoutLore(value: Json): Json {
  const servers = isObject(value.mcp_servers) ? value.mcp_servers : undefined;
  if (servers === undefined || !(TOML_SERVER_NAME in servers)) return value;
  const { [TOML_SERVER_NAME]: _removed, ...rest } = servers;
  // A table lore's entry alone created (or emptied) is no change of the user's.
  if (Object.keys(rest).length === 0) {
    const { mcp_servers: _servers, ...others } = value;
    return others;
  }
  return { ...value, mcp_servers: rest };
}

/** The edit must change lore's entry and nothing else, and leave valid TOML; anything else is a bug. */
function verify(before: Json, text: string, wanted: TomlServerEntry | undefined, file: string): void {
  let after: Json;
  try {
    after = getStaticTOMLValue(parseTOML(text)) as Json;
  } catch (error) {
    throw new Error(
      `editing ${file} would leave invalid TOML (nothing was written): ${(error as Error).message}`,
      { cause: error },
    );
  }
  const servers = isObject(after.mcp_servers) ? after.mcp_servers : {};
  const same = JSON.stringify(withoutLore(after)) === JSON.stringify(withoutLore(before));
  const entry =
    wanted === undefined ? !(TOML_SERVER_NAME in servers) : sameEntry(servers[TOML_SERVER_NAME], wanted);
  if (!same || !entry)
    throw new Error(`editing ${file} would change more than lore's entry; nothing was written`);
}

function sameEntry(value: unknown, entry: TomlServerEntry): boolean {
  return (
    isObject(value) &&
    JSON.stringify(Object.keys(value).sort()) === '["args","command"]' &&
    value.command === entry.command &&
    JSON.stringify(value.args) === JSON.stringify(entry.args)
  );
}

function current(text: string, file: string): { program: AST.TOMLProgram; value: Json } {
  const program = parse(text, file);
  const value = getStaticTOMLValue(program);
  return { program, value: isObject(value) ? value : {} };
}

export function planMcpTomlInstall(
  text: string | undefined,
  entry: TomlServerEntry,
  file = 'config.toml',
): TomlPlan {
  const source = text ?? '';
  const { program, value } = current(source, file);
  const servers = isObject(value.mcp_servers) ? value.mcp_servers : {};
  if (sameEntry(servers[TOML_SERVER_NAME], entry)) return { changed: false, text: source };
  const spans = loreSpans(source, program, file);
  const first = [...spans].sort((a, b) => a.start - b.start)[0];
  let next: string;
  if (first === undefined) {
    // Appended after one blank line; the file's own bytes stay as they are.
    const gap = source === '' || source.endsWith('\n\n') ? '' : source.endsWith('\n') ? '\n' : '\n\n';
    next = `${source}${gap}${tomlServerTable(entry)}\n`;
  } else {
    // Where the entry was, in the form it had there: a table stays a table, a key stays a key.
    const replacement = first.kind === 'table' ? tomlServerTable(entry) : inlineEntry(first.prefix, entry);
    next = splice(source, spans, replacement);
  }
  verify(value, next, entry, file);
  return { changed: true, text: next };
}

export function planMcpTomlUninstall(text: string | undefined, file = 'config.toml'): TomlPlan {
  const source = text ?? '';
  const { program, value } = current(source, file);
  const spans = loreSpans(source, program, file);
  if (spans.length === 0) return { changed: false, text: source };
  let next = splice(source, spans, undefined);
  // The blank line an install put before a table it appended goes with it.
  if (spans.some((span) => span.end === source.length)) next = next.replace(/\n\n+$/, '\n');
  verify(value, next, undefined, file);
  return { changed: true, text: next.trim() === '' ? '' : next };
}
