// writeFileThroughLinks: the one write for files a person may have symlinked (agent instruction
// files, agents' settings): the link stays a link, its target gets the text and keeps its mode,
// a dangling link's target is created. Real files in a temporary folder.
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { resolveLinkTarget, writeFileThroughLinks } from '../../src/store/fs/fs-atomic.js';

/** A temporary folder by its real path (links resolve to real paths: /tmp may be one on macOS). */
function tempDir(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'lore-write-through-')));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('writeFileThroughLinks', () => {
  it('writes a plain file in place, creating its folder', () => {
    const dir = tempDir();
    const file = join(dir, 'sub', 'AGENTS.md');
    expect(writeFileThroughLinks(file, 'text\n')).toBe(file);
    expect(readFileSync(file, 'utf8')).toBe('text\n');
  });

  it('writes a relative link (AGENTS.md -> CLAUDE.md) through to its target, keeping the link and the mode', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'CLAUDE.md'), 'before\n');
    chmodSync(join(dir, 'CLAUDE.md'), 0o600);
    symlinkSync('CLAUDE.md', join(dir, 'AGENTS.md'));
    expect(writeFileThroughLinks(join(dir, 'AGENTS.md'), 'after\n')).toBe(join(dir, 'CLAUDE.md'));
    expect(lstatSync(join(dir, 'AGENTS.md')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(dir, 'AGENTS.md'))).toBe('CLAUDE.md');
    expect(readFileSync(join(dir, 'CLAUDE.md'), 'utf8')).toBe('after\n');
    expect(statSync(join(dir, 'CLAUDE.md')).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir).sort()).toEqual(['AGENTS.md', 'CLAUDE.md']);
  });

  it("creates a dangling link's target (and its folder) and keeps the link", () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'home'));
    symlinkSync('../dotfiles/claude/settings.json', join(dir, 'home', 'settings.json'));
    const written = writeFileThroughLinks(join(dir, 'home', 'settings.json'), '{}\n');
    expect(written).toBe(join(dir, 'dotfiles', 'claude', 'settings.json'));
    expect(lstatSync(join(dir, 'home', 'settings.json')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, 'home', 'settings.json'), 'utf8')).toBe('{}\n');
  });

  it('follows a chain of links, read from the real folder of each', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'real'));
    symlinkSync('real', join(dir, 'linked-dir'));
    writeFileSync(join(dir, 'target.md'), 'x');
    symlinkSync('../target.md', join(dir, 'real', 'second'));
    symlinkSync(join(dir, 'linked-dir', 'second'), join(dir, 'first'));
    expect(resolveLinkTarget(join(dir, 'first'))).toBe(join(dir, 'target.md'));
  });

  it('a link loop is an error, not a hang', () => {
    const dir = tempDir();
    symlinkSync('b', join(dir, 'a'));
    symlinkSync('a', join(dir, 'b'));
    expect(() => writeFileThroughLinks(join(dir, 'a'), 'x')).toThrow(/too many symbolic links/);
  });
});
