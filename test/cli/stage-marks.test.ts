/**
 * LORE_STAGES=1 (src/cli/stage-marks.ts): a whole-process read prints when each stage ended, in
 * order, at exit, and printing them does not set up process.stderr (which would add its own
 * milliseconds to the exit the benchmark's breakdown reports).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../helpers/cli.js';

describe('stage marks', () => {
  it('a search prints its stages in order at exit, without process.stderr', () => {
    const sandbox = createSandbox();
    sandbox.add(['--summary', 'pytest hangs on a TTY prompt: run it with CI=1', '--tool', 'Bash']);
    const preload = join(sandbox.base, 'watch-stderr.cjs');
    writeFileSync(
      preload,
      `const { writeSync } = require('node:fs');
const stderr = Object.getOwnPropertyDescriptor(process, 'stderr');
Object.defineProperty(process, 'stderr', { configurable: true, get() { writeSync(2, 'STDERR STREAM\\n'); return stderr.get.call(process); } });
`,
    );
    const run = sandbox.run(['search', 'pytest'], {
      env: { LORE_STAGES: '1', NODE_OPTIONS: `--require ${preload}` },
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('pytest hangs');
    const marks = run.stderr
      .split('\n')
      .filter((line) => line.startsWith('LORE_STAGES '))
      .flatMap((line) => JSON.parse(line.slice('LORE_STAGES '.length)) as [string, number][]);
    expect(marks.map(([name]) => name)).toEqual([
      'entry',
      'fast bundle loaded',
      'verb module loaded',
      'workspace opened',
      'index ready',
      'command ran',
      'output written',
    ]);
    const times = marks.map(([, at]) => at);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(run.stderr).not.toContain('STDERR STREAM');
  });
});
