/**
 * What `lore prune` needs to know about the repository, gathered in a few process calls:
 * - its files: `git ls-files` once (tracked plus untracked files that are not ignored), or, outside
 *   git, a walk of the directory honouring every .gitignore on the way (the `ignore` package);
 * - which evidence commits are still on the current branch: one `git cat-file --batch-check` for
 *   all of them, then `git merge-base --is-ancestor` for a few or one `git rev-list HEAD` for many;
 * - which evidence tasks still exist: the config's `prune.taskPaths` templates, checked on disk.
 * Anything that cannot be told (no git, a shallow clone, no task source) is left out of the facts,
 * and unknown facts never make a lesson stale.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { Dirent } from 'node:fs';
import { join } from 'node:path';
import ignore from 'ignore';
import type { Ignore } from 'ignore';
import { taskPathsFor } from '../../core/curate/find-stale.js';
import { LORE_DIR } from '../fs/paths.js';

export type FileListing = { files: string[]; source: 'git' | 'walk' };

/** Beyond this many files the walk stops: a repository that big is expected to use git. */
const WALK_LIMIT = 500_000;
const ANCESTOR_CALLS_MAX = 16;
const MAX_BUFFER = 512 * 1024 * 1024;

function git(root: string, args: readonly string[], input?: string) {
  return spawnSync('git', args, {
    cwd: root,
    input,
    encoding: 'utf8',
    maxBuffer: MAX_BUFFER,
    env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' },
  });
}

/** Whether `root` is inside a git work tree (and git can be run). */
export function isGitWorkTree(root: string): boolean {
  const result = git(root, ['rev-parse', '--is-inside-work-tree']);
  return result.status === 0 && result.stdout.trim() === 'true';
}

/** The repository's files, relative to `root`, without lore's own `.lore/`. */
export function listRepoFiles(root: string, useGit = isGitWorkTree(root)): FileListing {
  if (useGit) {
    const result = git(root, ['ls-files', '-z', '--cached', '--others', '--exclude-standard']);
    if (result.status === 0) {
      const files = [...new Set(result.stdout.split('\0'))].filter(
        (file) => file !== '' && !file.startsWith(`${LORE_DIR}/`),
      );
      return { files, source: 'git' };
    }
  }
  return { files: walkFiles(root), source: 'walk' };
}

type Rules = { base: string; rules: Ignore };

function readRules(dir: string, base: string): Rules | undefined {
  try {
    return { base, rules: ignore().add(readFileSync(join(dir, '.gitignore'), 'utf8')) };
  } catch {
    return undefined;
  }
}

function ignoredBy(stack: readonly Rules[], path: string, isDir: boolean): boolean {
  for (const { base, rules } of stack) {
    const relative = base === '' ? path : path.slice(base.length + 1);
    if (rules.ignores(isDir ? `${relative}/` : relative)) return true;
  }
  return false;
}

function walkFiles(root: string): string[] {
  const files: string[] = [];
  const visit = (dir: string, rel: string, stack: readonly Rules[]) => {
    if (files.length >= WALK_LIMIT) return;
    const own = readRules(dir, rel);
    const rules = own ? [...stack, own] : stack;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name === '.git' || path === LORE_DIR || ignoredBy(rules, path, true)) continue;
        visit(join(dir, entry.name), path, rules);
      } else if ((entry.isFile() || entry.isSymbolicLink()) && !ignoredBy(rules, path, false)) {
        files.push(path);
      }
    }
  };
  visit(root, '', []);
  return files;
}

const COMMIT_REF = /^[0-9a-f]{4,40}$/i;

/**
 * For each commit ref (as written in lessons): true when the commit is on the current branch
 * (an ancestor of HEAD), false when it is gone (no such commit, or not reachable from HEAD). Refs
 * that are not commit hashes, and every ref outside git or in a shallow clone (whose history is
 * cut), are left out: unknown.
 */
export function commitsOnBranch(root: string, refs: readonly string[], useGit = isGitWorkTree(root)) {
  const facts = new Map<string, boolean>();
  const wanted = [...new Set(refs.filter((ref) => COMMIT_REF.test(ref)))];
  if (!useGit || wanted.length === 0) return facts;
  if (git(root, ['rev-parse', '--is-shallow-repository']).stdout.trim() === 'true') return facts;
  const head = git(root, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']);
  if (head.status !== 0) return facts;

  const batch = git(
    root,
    ['cat-file', '--batch-check=%(objectname) %(objecttype)'],
    `${wanted.join('\n')}\n`,
  );
  if (batch.status !== 0) return facts;
  const lines = batch.stdout.split('\n');
  const resolved = new Map<string, string>();
  wanted.forEach((ref, i) => {
    const [name, type] = (lines[i] ?? '').split(' ');
    if (type === 'commit' && name !== undefined) resolved.set(ref, name);
    else if (type === 'missing') facts.set(ref, false);
    // ambiguous prefixes and other object types stay unknown
  });
  if (resolved.size === 0) return facts;

  if (resolved.size <= ANCESTOR_CALLS_MAX) {
    for (const [ref, sha] of resolved) {
      const status = git(root, ['merge-base', '--is-ancestor', sha, 'HEAD']).status;
      if (status === 0 || status === 1) facts.set(ref, status === 0);
    }
    return facts;
  }
  const history = git(root, ['rev-list', 'HEAD']);
  if (history.status !== 0) return facts;
  const onBranch = new Set(history.stdout.split('\n'));
  for (const [ref, sha] of resolved) facts.set(ref, onBranch.has(sha));
  return facts;
}

/**
 * For each task ref: whether a file or directory of one of the `prune.taskPaths` templates exists
 * for it. No templates: every task is unknown, so task evidence never makes a lesson stale.
 */
export function tasksPresent(root: string, refs: readonly string[], templates: readonly string[]) {
  const facts = new Map<string, boolean>();
  if (templates.length === 0) return facts;
  for (const ref of new Set(refs)) {
    const candidates = taskPathsFor(ref, templates);
    if (candidates.length === 0) continue;
    facts.set(
      ref,
      candidates.some((path) => existsSync(join(root, path))),
    );
  }
  return facts;
}
