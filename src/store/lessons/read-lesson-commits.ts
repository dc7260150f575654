/**
 * The commits that touched a lesson file, for the history the dashboard shows
 * (`GET /api/lessons/:id`). Best effort: outside git, without git, or when git takes too long,
 * there are none.
 */
import { execFile } from 'node:child_process';
import { dirname } from 'node:path';

export type LessonCommit = { at: string; commit: string; author: string; subject: string };

/** The last `limit` commits that touched `file`, newest first. */
export function readLessonCommits(file: string, limit = 20): Promise<LessonCommit[]> {
  return new Promise((resolve) => {
    execFile(
      'git',
      ['log', '-n', String(limit), '--format=%aI%x09%h%x09%an%x09%s', '--', file],
      { cwd: dirname(file), timeout: 3000, env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } },
      (error, stdout) => {
        if (error) return resolve([]);
        resolve(stdout.split('\n').flatMap(parseCommitLine));
      },
    );
  });
}

function parseCommitLine(line: string): LessonCommit[] {
  const [at, commit, author, ...subject] = line.split('\t');
  if (at === undefined || commit === undefined || author === undefined || subject.length === 0) return [];
  return [{ at, commit, author, subject: subject.join('\t') }];
}
