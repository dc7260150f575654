/**
 * scripts/bundle-mcp.mjs's rewrite of the SDK's types.js: each exported schema built the first
 * time it is read. Run on the real file of the installed SDK: the same exports, none built at
 * load, each the same schema once read.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { lazySchemas } from '../../scripts/bundle-mcp.mjs';

const require = createRequire(import.meta.url);
const TYPES = require.resolve('@modelcontextprotocol/sdk/types.js');

/** Runs CommonJS `text` as the module at `file`; its exports. */
function evaluate(text: string, file = TYPES): Record<string, unknown> {
  const module = { exports: {} as Record<string, unknown> };
  new Function('exports', 'require', 'module', text)(module.exports, createRequire(file), module);
  return module.exports;
}

/** What the zod schema `schema` makes of `value`. */
const parse = (schema: unknown, value: unknown) =>
  (schema as { safeParse(value: unknown): { success: boolean; data?: unknown } }).safeParse(value);

describe('lazySchemas', () => {
  it('turns only exported schemas (calls and aliases) into getters', () => {
    const text = [
      'const z = { string: () => ({ built: ++globalThis.built }) };',
      'exports.AnySchema = z.string();',
      'exports.AliasSchema = exports.AnySchema;',
      'exports.VERSION = "1";',
      'exports.makeThing = z.string();',
      'const LocalSchema = z.string();',
    ].join('\n');
    const rewritten = lazySchemas(text);
    expect(rewritten.count).toBe(2);
    (globalThis as { built?: number }).built = 0;
    const exports = evaluate(rewritten.text);
    // makeThing and LocalSchema were built as written; the two schemas not yet
    expect((globalThis as { built?: number }).built).toBe(2);
    expect(Object.getOwnPropertyDescriptor(exports, 'AnySchema')?.get).toBeTypeOf('function');
    expect(exports.AliasSchema).toEqual({ built: 3 });
    expect(exports.AliasSchema).toBe(exports.AnySchema);
    expect((globalThis as { built?: number }).built).toBe(3);
    // once read, a plain property
    expect(Object.getOwnPropertyDescriptor(exports, 'AnySchema')?.value).toEqual({ built: 3 });
    expect(exports.VERSION).toBe('1');
  });

  it("keeps the SDK's types.js whole: the same exports, each schema built on first read and parsing as before", () => {
    const text = readFileSync(TYPES, 'utf8');
    const rewritten = lazySchemas(text);
    expect(rewritten.count).toBeGreaterThan(100);
    const eager = evaluate(text);
    const lazy = evaluate(rewritten.text);
    expect(Object.keys(lazy).sort()).toEqual(Object.keys(eager).sort());
    const schemas = Object.keys(eager).filter((name) => name.endsWith('Schema'));
    const unbuilt = schemas.filter((name) => Object.getOwnPropertyDescriptor(lazy, name)?.get !== undefined);
    // all but the few the module's own private schemas read as it loads (two in SDK 1.32)
    expect(unbuilt.length).toBeGreaterThan(rewritten.count - 5);
    const samples = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'lore_search', arguments: { query: 'x' } },
      },
      { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'hi' }], structuredContent: {} } },
      { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'image', data: '%%', mimeType: 'image/png' }] } },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3 } },
      { jsonrpc: '1.0', id: 'a', method: 7 },
    ];
    for (const name of schemas)
      for (const sample of [...samples, ...samples.map((s) => (s as { result?: unknown }).result ?? s)])
        expect([name, parse(lazy[name], sample)]).toEqual([name, parse(eager[name], sample)]);
    expect(lazy.ErrorCode).toEqual(eager.ErrorCode);
    expect(lazy.LATEST_PROTOCOL_VERSION).toBe(eager.LATEST_PROTOCOL_VERSION);
  });
});
