/**
 * Lesson candidates found by `lore scan`, waiting for review: `<tier>/candidates/<id>/lesson.yaml`
 * (a valid lesson record with a `capture` block), beside `lessons/` so the index and the hooks
 * never see them. Writes go through the same primitives as lessons: a fresh id claimed with
 * mkdir, whole files renamed into place, a per-candidate lock for read-modify-write. Decisions
 * (approved, rejected) are appended to `candidates/decisions.jsonl`, so a pattern someone
 * rejected is never proposed again.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { candidateShapeProblem } from '../../core/capture/candidate-shape.js';
import { LoreError } from '../../core/errors.js';
import { createLessonId, ID_RANDOM_BYTES } from '../../core/lesson/lesson-id.js';
import { LESSON_SCHEMA_COMMENT } from '../../core/lesson/lesson-yaml.js';
import type { CandidateRecord } from '../../core/capture/merge-candidate.js';
import { appendLine, claimDirectory, writeFileAtomic } from '../fs/fs-atomic.js';
import { ensureGitignore } from '../workspace/gitignore.js';
import { lessonLockPath, withLocks, withLocksAsync } from '../fs/lock.js';
import type { TierLayout } from '../fs/paths.js';

export const CANDIDATES_DIR = 'candidates';
const FILE = 'lesson.yaml';
const DECISIONS = 'decisions.jsonl';

export type StoredCandidate = { id: string; file: string; record: CandidateRecord };
/** A candidate file that cannot serve (unreadable, invalid YAML, a field of the wrong type), and why. */
export type BrokenCandidate = { id: string; file: string; problem: string };
/** `candidate`: the id the candidate had (absent in decisions written before it was recorded). */
export type Decision = {
  hash: string;
  decision: 'approved' | 'rejected';
  at: string;
  lesson?: string;
  candidate?: string;
};

export type CandidateStore = {
  readonly dir: string;
  list(): StoredCandidate[];
  /** In one read of every file: the candidates `list` gives, and the files it leaves out, with why. */
  survey(): { candidates: StoredCandidate[]; broken: BrokenCandidate[] };
  /** An id or a unique id prefix. */
  resolve(ref: string): StoredCandidate;
  create(render: (id: string) => CandidateRecord): StoredCandidate;
  /** Read-modify-write under the candidate's lock; `change` returning the record it got writes nothing. */
  update(id: string, change: (current: CandidateRecord) => CandidateRecord): StoredCandidate;
  remove(id: string): void;
  /**
   * Runs `fn` (an approval or a rejection) holding the candidate's decision lock, once the
   * candidate is found still there: of two approvals of one candidate at once, the second finds it
   * gone (not-found) instead of making a second lesson.
   */
  settle<T>(id: string, fn: () => T): T;
  settleAsync<T>(id: string, fn: () => Promise<T>): Promise<T>;
  decide(decision: Decision): void;
  decisions(): Map<string, Decision>;
};

/** The one candidate whose id starts with `ref`; ambiguous and missing refs are refused with what to do. */
export function pickCandidate<C extends { id: string }>(ref: string, candidates: readonly C[]): C {
  const wanted = ref.trim().toLowerCase();
  const matches = candidates.filter((c) => wanted !== '' && c.id.startsWith(wanted));
  if (matches.length === 1 && matches[0]) return matches[0];
  if (matches.length > 1)
    throw new LoreError('ambiguous', `"${ref}" matches ${matches.length} candidates`, {
      hint: `use more characters of the id: ${matches.map((c) => c.id).join(', ')}`,
    });
  throw new LoreError('not-found', `no candidate matches "${ref}"`, {
    hint: 'list them with `lore candidates list`',
  });
}

/**
 * The candidate as YAML, every value written out in place: a distilled record shares arrays with
 * the capture fields kept under `distill.heuristic`, and the default `&a1`/`*a1` anchors made a
 * hand edit of one of them (`paths: [src/**]`) leave an unresolved alias, an unreadable candidate.
 */
export function serializeCandidate(record: CandidateRecord): string {
  return `#${LESSON_SCHEMA_COMMENT.replace('../../../schema', '../../../schema')}\n${stringify(record, { lineWidth: 0, aliasDuplicateObjects: false })}`;
}

export function openCandidateStore(layout: TierLayout): CandidateStore {
  const dir = join(layout.dir, CANDIDATES_DIR);
  const fileOf = (id: string) => join(dir, id, FILE);
  /** The candidate, or why its file cannot serve as one (undefined when there is no file). */
  const examine = (id: string): StoredCandidate | BrokenCandidate | undefined => {
    let text: string;
    try {
      text = readFileSync(fileOf(id), 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      return { id, file: fileOf(id), problem: `cannot be read (${(error as Error).message})` };
    }
    let record: unknown;
    try {
      record = parse(text);
    } catch (error) {
      return {
        id,
        file: fileOf(id),
        problem: `invalid YAML: ${(error as Error).message.split('\n')[0]?.replace(/:$/, '')}`,
      };
    }
    const problem = candidateShapeProblem(record);
    return problem === undefined
      ? { id, file: fileOf(id), record: record as CandidateRecord }
      : { id, file: fileOf(id), problem };
  };
  const read = (id: string): StoredCandidate | undefined => {
    const found = examine(id);
    return found !== undefined && 'record' in found ? found : undefined;
  };
  const names = (): string[] => {
    try {
      return readdirSync(dir, { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
        .map((entry) => entry.name)
        .sort();
    } catch {
      return [];
    }
  };
  const lockOf = (id: string) => lessonLockPath(layout.cacheDir, `candidate-${id}`);
  const decisionLockOf = (id: string) => lessonLockPath(layout.cacheDir, `candidate-${id}`, '-decision');
  const stillThere = (id: string) => {
    if (read(id) === undefined)
      throw new LoreError('not-found', `candidate ${id} is gone: it was approved or rejected meanwhile`, {
        hint: 'list the others with `lore candidates list`',
      });
  };
  let ignored = false;
  const store: CandidateStore = {
    dir,
    list() {
      return store.survey().candidates;
    },
    survey() {
      const candidates: StoredCandidate[] = [];
      const broken: BrokenCandidate[] = [];
      for (const found of names().map(examine)) {
        if (found === undefined) continue;
        if ('record' in found) candidates.push(found);
        else broken.push(found);
      }
      return { candidates, broken };
    },
    resolve(ref) {
      return pickCandidate(ref, store.list());
    },
    create(render) {
      mkdirSync(dir, { recursive: true });
      if (!ignored) {
        // Repositories set up by an older lore get `candidates/` into their .gitignore here.
        ensureGitignore(layout.dir);
        ignored = true;
      }
      for (let attempt = 0; attempt < 16; attempt += 1) {
        const id = createLessonId(randomBytes(ID_RANDOM_BYTES));
        if (!claimDirectory(join(dir, id))) continue;
        const record = render(id);
        writeFileAtomic(fileOf(id), serializeCandidate(record));
        return { id, file: fileOf(id), record };
      }
      throw new Error('could not allocate a candidate id after 16 attempts');
    },
    update(id, change) {
      return withLocks([lockOf(id)], () => {
        const current = read(id);
        if (!current) throw new LoreError('not-found', `candidate ${id} is gone`);
        const record = change(current.record);
        // The same record back: nothing changed, nothing to write.
        if (record !== current.record) writeFileAtomic(fileOf(id), serializeCandidate(record));
        return { id, file: fileOf(id), record };
      });
    },
    remove(id) {
      withLocks([lockOf(id)], () => rmSync(join(dir, id), { recursive: true, force: true }));
    },
    settle(id, fn) {
      return withLocks([decisionLockOf(id)], () => {
        stillThere(id);
        return fn();
      });
    },
    settleAsync(id, fn) {
      return withLocksAsync([decisionLockOf(id)], async () => {
        stillThere(id);
        return fn();
      });
    },
    decide(decision) {
      mkdirSync(dir, { recursive: true });
      appendLine(join(dir, DECISIONS), JSON.stringify(decision));
    },
    decisions() {
      const out = new Map<string, Decision>();
      let text: string;
      try {
        text = readFileSync(join(dir, DECISIONS), 'utf8');
      } catch {
        return out;
      }
      for (const line of text.split('\n')) {
        try {
          const decision = JSON.parse(line) as Decision;
          if (typeof decision.hash === 'string') out.set(decision.hash, decision);
        } catch {
          // a torn line: skip it
        }
      }
      return out;
    },
  };
  return store;
}
