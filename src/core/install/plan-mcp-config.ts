/**
 * lore's MCP server into an agent's MCP configuration and out again, text in, text out. Only the
 * `lore` entry changes: the user's other servers and settings stay, and an install that finds the
 * same entry changes nothing (the caller then writes nothing).
 *
 * - JSON (Claude Code `~/.claude.json` / `.mcp.json`, Gemini CLI `.gemini/settings.json`):
 *   `mcpServers.lore = {command, args, ...}`.
 * - TOML (Codex `config.toml`): lore's entry, in whatever form the file has it, replaced or
 *   appended as a `[mcp_servers.lore]` table (plan-mcp-toml.ts).
 */
import { keepingByteOrderMark } from './byte-order-mark.js';
import { malformedConfig } from './malformed-config.js';
import { locateJsonError } from './locate-json-error.js';

export const MCP_SERVER_NAME = 'lore';

export type McpServerEntry = { command: string; args: string[]; extra?: Record<string, unknown> };

export type McpPlan = { changed: boolean; text: string };

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
  if (sameJson(servers[MCP_SERVER_NAME], wanted)) return { changed: false, text: text ?? '' };
  const next = { ...document, mcpServers: { ...servers, [MCP_SERVER_NAME]: wanted } };
  return { changed: true, text: `${JSON.stringify(next, null, 2)}\n` };
}

export function planMcpJsonUninstall(text: string | undefined, file: string): McpPlan {
  return keepingByteOrderMark(text, (body) => planMcpJsonUninstallBody(body, file));
}

function planMcpJsonUninstallBody(text: string | undefined, file: string): McpPlan {
  const document = parseJson(text, file);
  const servers = document.mcpServers as Json | undefined;
  if (servers === undefined || !(MCP_SERVER_NAME in servers)) return { changed: false, text: text ?? '' };
  const { [MCP_SERVER_NAME]: _removed, ...rest } = servers;
  return { changed: true, text: `${JSON.stringify({ ...document, mcpServers: rest }, null, 2)}\n` };
}

// Codex's TOML: edited by exact spans of a parsed file (plan-mcp-toml.ts).
export { planMcpTomlInstall, planMcpTomlUninstall, tomlServerTable } from './plan-mcp-toml.js';
