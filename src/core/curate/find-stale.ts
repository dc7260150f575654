/**
 * Staleness: a lesson whose anchors in the repository are all gone no longer describes it.
 * - paths: the lesson has path globs and no file of the repository matches any of them;
 * - commits: the lesson has commit evidence and every one of those commits is gone from the
 *   current branch;
 * - tasks: the lesson has task evidence and every one of those tasks is gone.
 * A rule applies only when the lesson has something for it, and only on known facts: a commit or a
 * task whose fate cannot be told (no git, a shallow clone, no task source) never makes a lesson
 * stale. Pure: the store gathers the facts (src/store/curate/repo-facts.ts).
 */
import { requiredGlobLiteral } from '../match/glob-literal.js';
import { compileGlob } from '../match/glob.js';

export const STALE_RULES = ['paths', 'commits', 'tasks'] as const;
export type StaleRule = (typeof STALE_RULES)[number];

export type StaleReason = { rule: StaleRule; refs: string[]; message: string };

export type RepoFacts = {
  /** Every file of the repository (repo-relative, `/`-separated), or undefined when unknown. */
  files: readonly string[] | undefined;
  /** Commit ref -> whether it is on the current branch. Refs missing here are unknown. */
  commits: ReadonlyMap<string, boolean>;
  /** Task ref -> whether the task still exists. Refs missing here are unknown. */
  tasks: ReadonlyMap<string, boolean>;
};

export type StaleInput = {
  paths: readonly string[];
  evidence: readonly { kind: string; ref: string }[];
};

/** Answers "does any file match this glob?" once per glob, with the literal each match needs. */
export function createFileMatcher(files: readonly string[]): (glob: string) => boolean {
  const cache = new Map<string, boolean>();
  return (glob) => {
    const known = cache.get(glob);
    if (known !== undefined) return known;
    const literal = requiredGlobLiteral(glob);
    const regex = new RegExp(compileGlob(glob));
    let found = false;
    for (const file of files) {
      if (literal !== '' && !file.includes(literal)) continue;
      if (regex.test(file)) {
        found = true;
        break;
      }
    }
    cache.set(glob, found);
    return found;
  };
}

function refsOf(lesson: StaleInput, kind: string): string[] {
  return [...new Set(lesson.evidence.filter((e) => e.kind === kind).map((e) => e.ref.trim()))].filter(
    (ref) => ref !== '',
  );
}

/** Every ref known and gone: the refs; otherwise undefined. */
function allGone(refs: readonly string[], facts: ReadonlyMap<string, boolean>): string[] | undefined {
  if (refs.length === 0) return undefined;
  return refs.every((ref) => facts.get(ref) === false) ? [...refs] : undefined;
}

export function findStaleReasons(
  lesson: StaleInput,
  facts: RepoFacts,
  anyFileMatches: ((glob: string) => boolean) | undefined,
): StaleReason[] {
  const reasons: StaleReason[] = [];
  if (lesson.paths.length > 0 && facts.files !== undefined && anyFileMatches !== undefined) {
    if (!lesson.paths.some((glob) => anyFileMatches(glob))) {
      reasons.push({
        rule: 'paths',
        refs: [...lesson.paths],
        message: `no file matches ${lesson.paths.length === 1 ? 'its path glob' : 'any of its path globs'} ${lesson.paths.join(', ')}`,
      });
    }
  }
  const commits = allGone(refsOf(lesson, 'commit'), facts.commits);
  if (commits !== undefined) {
    reasons.push({
      rule: 'commits',
      refs: commits,
      message: `${commits.length === 1 ? 'its evidence commit' : `all ${commits.length} evidence commits`} ${commits.join(', ')} ${commits.length === 1 ? 'is' : 'are'} gone from the current branch`,
    });
  }
  const tasks = allGone(refsOf(lesson, 'task'), facts.tasks);
  if (tasks !== undefined) {
    reasons.push({
      rule: 'tasks',
      refs: tasks,
      message: `${tasks.length === 1 ? 'its evidence task' : `all ${tasks.length} evidence tasks`} ${tasks.join(', ')} ${tasks.length === 1 ? 'is' : 'are'} gone`,
    });
  }
  return reasons;
}

/** Task refs that may stand in a path: no separators, no `..`, nothing hidden. */
export function isPathSafeTask(ref: string): boolean {
  return /^[\w][\w.@+-]*$/.test(ref) && !ref.includes('..');
}

/** Where a task would be, for each `{task}` template of the config. */
export function taskPathsFor(ref: string, templates: readonly string[]): string[] {
  if (!isPathSafeTask(ref)) return [];
  return templates.map((template) => template.split('{task}').join(ref));
}
