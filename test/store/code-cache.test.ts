// runCodeCached (src/store/fs/code-cache.ts), which the hook's launcher and `lore mcp` share: the
// cache is written once and reused, and anything wrong with it only means compiling as usual.
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import {
  codeCacheFile,
  codeCacheRuntime,
  runCodeCached,
  staleCodeCaches,
} from '../../src/store/fs/code-cache.js';

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

  test("another build's cache for this Node version is removed when a new one is written", () => {
    mkdirSync(cacheDir(), { mode: 0o700 });
    writeFileSync(join(cacheDir(), `code-old-1-${process.version}-${process.arch}.bin`), 'old');
    run().save();
    expect(readdirSync(cacheDir())).toEqual([codeCacheFile('b1', statSync(file).size)]);
  });

  test('the caches of other Node versions are kept, one each, for the newest three versions', () => {
    mkdirSync(cacheDir(), { mode: 0o700 });
    const at = (name: string, seconds: number) => {
      writeFileSync(join(cacheDir(), name), 'x');
      utimesSync(join(cacheDir(), name), seconds, seconds);
    };
    at('code-b0-1-v18.99.0-x64.bin', 1_000);
    at('code-b1-1-v18.99.0-x64.bin', 2_000);
    at('code-b1-1-v21.99.0-x64.bin', 3_000);
    at('code-b1-1-v23.99.0-x64.bin', 4_000);
    at('code-b1-1-v24.0.0-nightly20250101-arm64.bin', 500);
    at('code-b1-1-v21.99.0-x64.bin.123.tmp', 10);
    run().save();
    expect(readdirSync(cacheDir()).sort()).toEqual(
      [
        codeCacheFile('b1', statSync(file).size),
        'code-b1-1-v21.99.0-x64.bin',
        'code-b1-1-v23.99.0-x64.bin',
      ].sort(),
    );
  });

  test("staleCodeCaches keeps a writer's fresh temporary file, and what is not a cache", () => {
    const written = 'code-b1-9-v20.20.2-x64.bin';
    expect(
      staleCodeCaches(
        [
          { name: 'code-b1-9-v20.20.2-x64.bin.77.tmp', mtimeMs: 99_000 },
          { name: 'code-b0-9-v20.20.2-x64.bin', mtimeMs: 1 },
          { name: 'notes.txt', mtimeMs: 1 },
          { name: 'code-b1-9-v22.1.0-x64.bin', mtimeMs: 5 },
        ],
        written,
        100_000,
      ),
    ).toEqual(['code-b0-9-v20.20.2-x64.bin']);
    expect(codeCacheRuntime(written)).toBe('v20.20.2-x64');
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

  test('eager: false caches only the functions that ran before save(): a smaller cache, as good', () => {
    // methods, as a bundle's modules hold their code; V8 keeps compiled scripts per source for
    // the rest of the process, so each case has its own
    const methods = Array.from(
      { length: 200 },
      (_, i) =>
        `var m${i} = { f(x) { let s = 0; for (const c of String(x)) s += c.length * ${i}; return s + x; } };`,
    ).join('\n');
    const cacheSize = (eager: boolean) => {
      writeFileSync(file, `${methods}\nexports.sum = (x) => m0.f(x) + m199.f(x); // ${eager}\n`);
      const options = { file, build: `b-${eager}`, cacheName: 'lore-test', require: createRequire(file) };
      const first = runCodeCached({ ...options, eager });
      expect(exportsOf(first).sum(1)).toBe(201);
      first.save();
      const second = runCodeCached(options);
      expect(second.fromCache).toBe(true);
      expect(exportsOf(second).sum(2)).toBe(203);
      return statSync(join(cacheDir(), codeCacheFile(`b-${eager}`, statSync(file).size))).size;
    };
    expect(cacheSize(false)).toBeLessThan(cacheSize(true) / 2);
  });

  test('onRun is called before the body runs, and what the body throws reaches the caller', () => {
    writeFileSync(file, 'throw new Error("body failed");\n');
    const calls: string[] = [];
    expect(() => run(() => calls.push('run'))).toThrow('body failed');
    expect(calls).toEqual(['run']);
  });
});
