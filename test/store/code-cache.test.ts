// runCodeCached (src/store/fs/code-cache.ts), which the hook's launcher and `lore mcp` share: the
// cache is written once and reused, and anything wrong with it only means compiling as usual.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { codeCacheFile, runCodeCached } from '../../src/store/fs/code-cache.js';

let base: string;
let file: string;
const uid = process.getuid?.() ?? 'user';
const cacheDir = () => join(base, 'tmp', `lore-test-${uid}`);

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'lore-code-cache-'));
  mkdirSync(join(base, 'tmp'));
  vi.stubEnv('TMPDIR', join(base, 'tmp'));
  file = join(base, 'module.cjs');
  // enough code for V8 to cache, with a function the caller runs after loading
  const body = Array.from({ length: 200 }, (_, i) => `function f${i}(x) { return x + ${i}; }`).join('\n');
  writeFileSync(file, `${body}\nexports.sum = (x) => f0(x) + f199(x);\nexports.dir = __dirname;\n`);
});

afterEach(() => {
  vi.unstubAllEnvs();
  rmSync(base, { recursive: true, force: true });
});

const run = (onRun?: () => void) =>
  runCodeCached({ file, build: 'b1', cacheName: 'lore-test', require: createRequire(file), onRun });
const exportsOf = (result: ReturnType<typeof run>) =>
  result.exports as { sum(x: number): number; dir: string };

describe('runCodeCached', () => {
  test('runs the file as CommonJS, writes the cache when asked, and the next run reads it', () => {
    const first = run();
    expect(exportsOf(first).sum(1)).toBe(201);
    expect(exportsOf(first).dir).toBe(base);
    expect(first.fromCache).toBe(false);
    first.save();
    const name = codeCacheFile('b1', statSync(file).size);
    expect(readdirSync(cacheDir())).toEqual([name]);
    expect(statSync(cacheDir()).mode & 0o777).toBe(0o700);
    expect(statSync(join(cacheDir(), name)).mode & 0o777).toBe(0o600);
    const written = statSync(join(cacheDir(), name));

    const second = run();
    second.save();
    expect(second.fromCache).toBe(true);
    expect(exportsOf(second).sum(2)).toBe(203);
    // accepted, so not written again
    expect(statSync(join(cacheDir(), name)).ino).toBe(written.ino);
    expect(statSync(join(cacheDir(), name)).mtimeMs).toBe(written.mtimeMs);
  });

  test('a corrupt cache is rejected, the file still runs, and a good cache replaces it', () => {
    mkdirSync(cacheDir(), { mode: 0o700 });
    const name = codeCacheFile('b1', statSync(file).size);
    writeFileSync(join(cacheDir(), name), 'not a code cache');
    const result = run();
    expect(result.fromCache).toBe(false);
    expect(exportsOf(result).sum(1)).toBe(201);
    result.save();
    expect(run().fromCache).toBe(true);
  });

  test('caches of other builds are removed when a new one is written', () => {
    mkdirSync(cacheDir(), { mode: 0o700 });
    writeFileSync(join(cacheDir(), 'code-old-1-v0-x.bin'), 'old');
    run().save();
    expect(readdirSync(cacheDir())).toEqual([codeCacheFile('b1', statSync(file).size)]);
  });

  test('a cache directory others can write is not used: the file runs all the same', () => {
    mkdirSync(cacheDir(), { mode: 0o700 });
    chmodSync(cacheDir(), 0o777);
    run().save();
    const second = run();
    expect(second.fromCache).toBe(false);
    expect(exportsOf(second).sum(1)).toBe(201);
    expect(readdirSync(cacheDir())).toEqual([]);
  });

  test('a file where the cache directory goes: the file runs all the same', () => {
    writeFileSync(cacheDir(), '');
    run().save();
    const second = run();
    expect(second.fromCache).toBe(false);
    expect(exportsOf(second).sum(1)).toBe(201);
    expect(statSync(cacheDir()).isFile()).toBe(true);
  });

  test('onRun is called before the body runs, and what the body throws reaches the caller', () => {
    writeFileSync(file, 'throw new Error("body failed");\n');
    const calls: string[] = [];
    expect(() => run(() => calls.push('run'))).toThrow('body failed');
    expect(calls).toEqual(['run']);
  });
});
