/**
 * lore's MCP server into an agent's MCP configuration and out again, text in, text out. Only the
 * `lore` entry changes: the user's other servers and settings stay, and an install that finds the
 * same entry changes nothing (the caller then writes nothing).
 *
 * - JSON (Claude Code `~/.claude.json` / `.mcp.json`, Gemini CLI `.gemini/settings.json`):
 *   `mcpServers.lore = {command, args, ...}`, edited in place (edit-json-text.ts): the rest of the
 *   file stays byte for byte.
 * - TOML (Codex `config.toml`): lore's entry, in whatever form the file has it, replaced or
 *   appended as a `[mcp_servers.lore]` table (plan-mcp-toml.ts).
 */
import { keepingByteOrderMark } from './byte-order-mark.js';
import { editJsonText } from './edit-json-text.js';
import { LoreError } from '../errors.js';
import { malformedConfig } from './malformed-config.js';
import { locateJsonError } from './locate-json-error.js';

export const MCP_SERVER_NAME = 'lore';

export type McpServerEntry = { command: string; args: string[]; extra?: Record<string, unknown> };

export type McpPlan = {
  changed: boolean;
  text: string;
  /** Uninstall: why an `mcpServers.lore` entry was left in place (one lore did not write). */
  kept?: string;
};

/** The bundles lore's own entries run: the CLI (`dist/cli/bin.js`, `lore.cjs`) or the plugin's launcher. */
const LORE_MCP_BUNDLE = /(?:^|[\\/])(?:dist[\\/]cli[\\/](?:bin\.js|lore\.cjs)|lore-mcp\.cjs)$/;

/**
 * Whether an `mcpServers.lore` entry is lore's own, recognised (as its hooks are) by the bundle it
 * runs: `node <lore>/dist/cli/lore.cjs mcp`, or the plugin's `lore-mcp.cjs`; or the bare
 * `lore mcp` an older lore wrote, with no environment of its own. Any other entry under that name
 * (`npx -y lore mcp` with the team's LORE_HOME, another tool called lore) is the user's: install
 * refuses to replace it and uninstall leaves it.
 */
export function isLoreMcpServer(value: unknown): boolean {
  if (!isObject(value) || !Array.isArray(value.args)) return false;
  const args = value.args as unknown[];
  const [bundle, ...rest] = args;
  if (typeof bundle === 'string' && LORE_MCP_BUNDLE.test(bundle))
    return rest.length === 0 || (rest.length === 1 && rest[0] === 'mcp');
  const noEnv = value.env === undefined || (isObject(value.env) && Object.keys(value.env).length === 0);
  return (
    typeof value.command === 'string' &&
    /(?:^|[\\/])lore(?:\.cmd|\.exe)?$/.test(value.command) &&
    args.length === 1 &&
    args[0] === 'mcp' &&
    noEnv
  );
}

function describeServer(value: unknown): string {
  if (!isObject(value)) return JSON.stringify(value) ?? String(value);
  const args = Array.isArray(value.args) ? value.args.map(String) : [];
  return [String(value.command ?? ''), ...args].join(' ').trim();
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function parseJson(text: string | undefined, file: string): Json {
  if (text === undefined || text.trim() === '') return {};
  const syntax = locateJsonError(text);
  if (syntax !== undefined)
    throw malformedConfig(file, syntax.line, `not valid JSON (column ${syntax.column}: ${syntax.message})`);
  const document: unknown = JSON.parse(text);
  if (!isObject(document)) throw malformedConfig(file, 1, 'the file must hold a JSON object');
  if (document.mcpServers !== undefined && !isObject(document.mcpServers))
    throw malformedConfig(file, undefined, '"mcpServers" must be an object');
  return document;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function jsonServerEntry(entry: McpServerEntry): Json {
  return { ...(entry.extra ?? {}), command: entry.command, args: entry.args };
}

export function planMcpJsonInstall(text: string | undefined, entry: McpServerEntry, file: string): McpPlan {
  return keepingByteOrderMark(text, (body) => planMcpJsonInstallBody(body, entry, file));
}

function planMcpJsonInstallBody(text: string | undefined, entry: McpServerEntry, file: string): McpPlan {
  const document = parseJson(text, file);
  const servers = (document.mcpServers as Json | undefined) ?? {};
  const wanted = jsonServerEntry(entry);
  const current = servers[MCP_SERVER_NAME];
  if (sameJson(current, wanted)) return { changed: false, text: text ?? '' };
  if (current !== undefined && !isLoreMcpServer(current)) {
    throw new LoreError(
      'conflict',
      `${file} already has an MCP server named "${MCP_SERVER_NAME}" that lore did not write (${describeServer(current)}); nothing was changed`,
      {
        hint: `keep it (it is yours), or rename or remove mcpServers.${MCP_SERVER_NAME} in ${file} and install again`,
      },
    );
  }
  const next = { ...document, mcpServers: { ...servers, [MCP_SERVER_NAME]: wanted } };
  const edit =
    document.mcpServers === undefined
      ? { op: 'set' as const, path: ['mcpServers'], value: { [MCP_SERVER_NAME]: wanted } }
      : { op: 'set' as const, path: ['mcpServers', MCP_SERVER_NAME], value: wanted };
  return { changed: true, text: editJsonText(text, [edit], next) };
}

export function planMcpJsonUninstall(text: string | undefined, file: string): McpPlan {
  return keepingByteOrderMark(text, (body) => planMcpJsonUninstallBody(body, file));
}

function planMcpJsonUninstallBody(text: string | undefined, file: string): McpPlan {
  const document = parseJson(text, file);
  const servers = document.mcpServers as Json | undefined;
  if (servers === undefined || !(MCP_SERVER_NAME in servers)) return { changed: false, text: text ?? '' };
  if (!isLoreMcpServer(servers[MCP_SERVER_NAME])) {
    return {
      changed: false,
      text: text ?? '',
      kept: `mcpServers.${MCP_SERVER_NAME} in ${file} is not lore's (${describeServer(servers[MCP_SERVER_NAME])}): left as it is`,
    };
  }
  const { [MCP_SERVER_NAME]: _removed, ...rest } = servers;
  const edit = { op: 'remove' as const, path: ['mcpServers', MCP_SERVER_NAME] };
  return { changed: true, text: editJsonText(text, [edit], { ...document, mcpServers: rest }) };
}

// Codex's TOML: edited by exact spans of a parsed file (plan-mcp-toml.ts).
export { planMcpTomlInstall, planMcpTomlUninstall, tomlServerTable } from './plan-mcp-toml.js';
