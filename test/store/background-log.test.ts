// The log of detached scans and pulls stays bounded: past the limit a run starts a fresh log and
// the one before is kept once, as `.1`.
import { closeSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openBackgroundLog } from '../../src/store/fs/background-log.js';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function run(path: string, text: string, limit: number): void {
  const fd = openBackgroundLog(path, limit);
  writeSync(fd, text);
  closeSync(fd);
}

describe('openBackgroundLog', () => {
  it('appends up to the limit, then starts afresh keeping the last log as .1', () => {
    dir = mkdtempSync(join(tmpdir(), 'lore-bglog-'));
    const log = join(dir, 'background.log');
    run(log, 'run 1\n', 10);
    run(log, 'run 2\n', 10);
    expect(readFileSync(log, 'utf8')).toBe('run 1\nrun 2\n');
    expect(existsSync(`${log}.1`)).toBe(false);
    run(log, 'run 3\n', 10);
    expect(readFileSync(log, 'utf8')).toBe('run 3\n');
    expect(readFileSync(`${log}.1`, 'utf8')).toBe('run 1\nrun 2\n');
    // the older one goes: at most two logs
    writeFileSync(log, 'x'.repeat(20));
    run(log, 'run 4\n', 10);
    expect(readFileSync(`${log}.1`, 'utf8')).toBe('x'.repeat(20));
    expect(readFileSync(log, 'utf8')).toBe('run 4\n');
  });
});
