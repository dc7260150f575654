// The read path (list, search, show on a fresh index) must not load the YAML parser, zod or
// picomatch: they cost more than the whole query. A module-resolve hook records what loads.
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../../dist/cli/bin.js', import.meta.url));
let base = '';
let hook = '';

function lore(args: string[], withHook = false) {
  const result = spawnSync(process.execPath, [...(withHook ? ['--import', hook] : []), bin, ...args], {
    cwd: join(base, 'repo'),
    env: { PATH: process.env.PATH, HOME: join(base, 'home'), TZ: 'UTC', NO_COLOR: '1' },
    encoding: 'utf8',
  });
  const loaded = result.stderr
    .split('\n')
    .filter((line) => line.startsWith('LOADED '))
    .map((line) => line.slice('LOADED '.length));
  return { status: result.status, loaded };
}

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'lore-startup-'));
  mkdirSync(join(base, 'repo', '.git'), { recursive: true });
  mkdirSync(join(base, 'home'));
  hook = join(base, 'hook.mjs');
  // Packages lore itself loads: through import (a module-resolve hook) and through require (the
  // fast verbs run from a CommonJS bundle), not what those packages load in turn.
  writeFileSync(
    hook,
    `import Module, { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(\`export async function resolve(s, c, next) {
  const r = await next(s, c);
  if (r.url.includes('/node_modules/') && !(c.parentURL ?? '').includes('/node_modules/')) process.stderr.write('LOADED ' + r.url.split('/node_modules/')[1].split('/')[0] + '\\\\n');
  return r;
}\`));
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  const file = resolveFilename.call(this, request, parent, ...rest);
  if (file.includes('/node_modules/') && !(parent?.filename ?? '').includes('/node_modules/')) process.stderr.write('LOADED ' + file.split('/node_modules/')[1].split('/')[0] + '\\n');
  return file;
};
`,
  );
  lore(['init']);
  lore(['add', '--summary', 'pytest hangs on a TTY', '--path', 'tests/**', '--tag', 'lang:python']);
  lore(['list']);
});

afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('fresh read path', () => {
  it.each([[['list']], [['list', '--path', 'tests/a.py']], [['search', 'pytest']], [['list', '--json']]])(
    'lore %j loads libsql and nothing else from node_modules',
    (args) => {
      const run = lore(args, true);
      expect(run.status).toBe(0);
      expect([...new Set(run.loaded)]).toEqual(['libsql']);
    },
  );

  it('a lesson file changed by hand does load the parser (so the hook is watching)', () => {
    const listed = spawnSync(process.execPath, [bin, 'list', '--json'], {
      cwd: join(base, 'repo'),
      env: { PATH: process.env.PATH, HOME: join(base, 'home') },
      encoding: 'utf8',
    });
    const file = (JSON.parse(listed.stdout) as { lessons: { file: string }[] }).lessons[0]?.file ?? '';
    appendFileSync(join(base, 'repo', file), '# edited by hand\n');
    const run = lore(['list'], true);
    expect(run.loaded).toEqual(expect.arrayContaining(['yaml', 'zod']));
  });
});

describe('the entries', () => {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    bin: { lore: string };
  };
  const packageBin = fileURLToPath(new URL(`../../${pkg.bin.lore}`, import.meta.url));
  const run = (entry: string, args: string[]) =>
    spawnSync(process.execPath, [entry, ...args], {
      cwd: join(base, 'repo'),
      env: { PATH: process.env.PATH, HOME: join(base, 'home'), TZ: 'UTC', NO_COLOR: '1' },
      encoding: 'utf8',
    });

  it.each([
    [['search', 'pytest', '--json']],
    [['list', '--path', 'tests/a.py']],
    [['--version']],
    [['nosuch']],
  ])("the package's bin (CommonJS) and dist/cli/bin.js (an ES module) answer %j alike", (args) => {
    const [cjs, esm] = [packageBin, bin].map((entry) => run(entry, args));
    expect(pkg.bin.lore).toBe('dist/cli/lore.cjs');
    expect([cjs?.status, cjs?.stdout, cjs?.stderr]).toEqual([esm?.status, esm?.stdout, esm?.stderr]);
  });
});
