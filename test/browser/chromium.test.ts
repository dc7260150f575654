/** How the dashboard suite finds its browser: LORE_CHROMIUM, PATH, Debian's location, in that order. */
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findChromium, installCommand } from '../helpers/chromium.js';

function fakeBrowserDir(): { dir: string; binary: string } {
  const dir = mkdtempSync(join(tmpdir(), 'lore-chromium-'));
  const binary = join(dir, 'chromium');
  writeFileSync(binary, '#!/bin/sh\n');
  chmodSync(binary, 0o755);
  return { dir, binary };
}

describe('findChromium', () => {
  it('takes LORE_CHROMIUM when it names an executable file', () => {
    const { binary } = fakeBrowserDir();
    expect(findChromium({ LORE_CHROMIUM: binary, PATH: '' })).toBe(binary);
  });

  it('falls back to PATH when LORE_CHROMIUM names a missing file', () => {
    const { dir, binary } = fakeBrowserDir();
    expect(findChromium({ LORE_CHROMIUM: join(dir, 'missing'), PATH: `/nonexistent:${dir}` })).toBe(binary);
  });

  it('skips a PATH entry that is not executable', () => {
    const { dir } = fakeBrowserDir();
    chmodSync(join(dir, 'chromium'), 0o644);
    const found = findChromium({ LORE_CHROMIUM: join(dir, 'missing'), PATH: dir });
    expect(found).not.toBe(join(dir, 'chromium'));
  });
});

describe('installCommand', () => {
  it.each([
    [0, 'sh'],
    [1000, 'sudo'],
  ])('uid %i runs apt through %s, updating the package lists first', (uid, first) => {
    const command = installCommand(uid);
    expect(command[0]).toBe(first);
    expect(command.at(-1)).toMatch(/^apt-get update -qq && .*apt-get install -y -qq chromium$/);
  });
});
