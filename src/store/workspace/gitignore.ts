/**
 * The tier's `.gitignore`: what lore writes in a tier directory but must never be committed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../fs/fs-atomic.js';

/** What `.lore/.gitignore` keeps out of git, each entry with the comment that says why. */
const IGNORED: readonly { entry: string; comment: string }[] = [
  {
    entry: 'cache/',
    comment: '# Derived files: the index, manifests and state. lore rebuilds them from the lessons.',
  },
  {
    entry: 'candidates/',
    comment:
      '# Lesson candidates from `lore scan`: unreviewed drafts mined from your own transcripts.\n' +
      '# They stay local; `lore candidates approve` turns one into a lesson in lessons/, which is committed.',
  },
];

/**
 * Makes sure the tier's `.gitignore` keeps `cache/` and `candidates/` out of git: creates the
 * file, or appends the entries an older lore did not write (existing lines are never touched).
 * Idempotent; `lore init` and the first candidate a scan writes both call it.
 */
export function ensureGitignore(dir: string): 'created' | 'updated' | 'kept' {
  const path = join(dir, '.gitignore');
  const current = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
  const lines = new Set((current ?? '').split(/\r?\n/).map((line) => line.trim()));
  const missing = IGNORED.filter(({ entry }) => !lines.has(entry) && !lines.has(`/${entry}`));
  if (missing.length === 0) return 'kept';
  const block = missing.map(({ entry, comment }) => `${comment}\n${entry}\n`).join('');
  const prefix =
    current === undefined || current === '' || current.endsWith('\n') ? (current ?? '') : `${current}\n`;
  writeFileAtomic(path, `${prefix}${block}`);
  return current === undefined ? 'created' : 'updated';
}
