/** The import-circle check of `npm run lint`: which imports count, and which graphs have circles. */
import { describe, expect, it } from 'vitest';
import { findCircles, hookViolations, valueImports } from '../../scripts/check-imports.mjs';

describe('valueImports', () => {
  it.each([
    ["import { a } from './a.js';", ['/p/a.ts']],
    ["import a from './a.js';", ['/p/a.ts']],
    ["import * as a from '../q/a.js';", ['/q/a.ts']],
    ["import './side-effect.js';", ['/p/side-effect.ts']],
    ["export { a } from './a.js';", ['/p/a.ts']],
    ["export * from './a.js';", ['/p/a.ts']],
    ["const m = await import('./lazy.js');", ['/p/lazy.ts']],
    ["import { a, type B } from './a.js';", ['/p/a.ts']],
    ["import {\n  a,\n  b,\n} from './multi.js';", ['/p/multi.ts']],
    ["import type { A } from './a.js';", []],
    ["export type { A } from './a.js';", []],
    ["import { type A, type B } from './a.js';", []],
    ["import { readFileSync } from 'node:fs';", ['node:fs']],
    ["import { parse } from 'yaml';", ['yaml']],
  ])('%j imports %j at run time', (text, expected) => {
    expect(valueImports('/p/file.ts', text)).toEqual(expected);
  });
});

describe('findCircles', () => {
  const graph = (edges: Record<string, string[]>): Map<string, string[]> => new Map(Object.entries(edges));

  it.each([
    ['a chain', { a: ['b'], b: ['c'], c: [] }, []],
    ['two files importing each other', { a: ['b'], b: ['a'] }, [['a', 'b']]],
    ['a three-file loop beside a clean file', { a: ['b'], b: ['c'], c: ['a'], d: ['a'] }, [['a', 'b', 'c']]],
    ['a file importing itself', { a: ['a'] }, [['a']]],
    ['an import of a file outside the tree', { a: ['zod'] }, []],
  ])('%s', (_name, edges, expected) => {
    expect(findCircles(graph(edges))).toEqual(expected);
  });
});

describe('hookViolations', () => {
  it.each([
    ['src/hook/run-hook.ts', ['node:fs', 'src/store/fs/paths.ts', 'src/core/inject/types.ts'], []],
    ['src/hook/run-hook.ts', ['fs', 'src/adapters/codex/hook-adapter.ts'], []],
    [
      'src/hook/run-hook.ts',
      ['yaml', 'src/store/index/lesson-index.ts'],
      ['yaml', 'src/store/index/lesson-index.ts'],
    ],
    ['src/store/hook-state/audit-log.ts', ['src/core/lesson/schema.ts'], ['src/core/lesson/schema.ts']],
    ['src/core/inject/select-lessons.ts', ['src/core/match/glob.ts'], ['src/core/match/glob.ts']],
    ['src/hook/lore-manifest.ts', ['yaml', 'src/store/manifest/manifest-build.ts'], []],
    ['src/store/lessons/lesson-writes.ts', ['yaml'], []],
  ])('%s importing %j: %j outside the hook folders', (file, imports, expected) => {
    expect(hookViolations(file, imports)).toEqual(expected);
  });
});
