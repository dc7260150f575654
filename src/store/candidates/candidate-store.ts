/**
 * Lesson candidates found by `lore scan`, waiting for review: `<tier>/candidates/<id>/lesson.yaml`
 * (a valid lesson record with a `capture` block), beside `lessons/` so the index and the hooks
 * never see them. Writes go through the same primitives as lessons: a fresh id claimed with
 * mkdir, whole files renamed into place, a per-candidate lock for read-modify-write. Decisions
 * (approved, rejected) are appended to `candidates/decisions.jsonl`, so a pattern someone
 * rejected is never proposed again.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { candidateShapeProblem } from '../../core/capture/candidate-shape.js';
import { LoreError } from '../../core/errors.js';
import { createLessonId, ID_RANDOM_BYTES } from '../../core/lesson/lesson-id.js';
import { LESSON_SCHEMA_COMMENT } from '../../core/lesson/lesson-yaml.js';
import { candidateHashes } from '../../core/capture/merge-candidate.js';
import type { CandidateRecord } from '../../core/capture/merge-candidate.js';
import {
  appendLine,
  claimDirectory,
  isAbandonedTemp,
  unlinkQuietly,
  writeFileAtomic,
} from '../fs/fs-atomic.js';
import { ensureGitignore } from '../workspace/gitignore.js';
import { lessonLockPath, withLocks, withLocksAsync } from '../fs/lock.js';
import type { TierLayout } from '../fs/paths.js';

export const CANDIDATES_DIR = 'candidates';
const FILE = 'lesson.yaml';
/**
 * Beside each candidate file: the content hashes it stands for, out of reach of a hand edit, so a
 * candidate broken by hand (even cut to nothing) still keeps a scan from proposing its pattern twice.
 */
const IDENTITY = 'hashes.json';
const DECISIONS = 'decisions.jsonl';

export type StoredCandidate = { id: string; file: string; record: CandidateRecord };
/**
 * A candidate file that cannot serve (unreadable, invalid YAML, a field of the wrong type), and why;
 * `line` where the problem is, when known; `hashes`, the patterns it stands for, as far as they
 * could still be read (its sidecar, or the fields that survived): a scan merges nothing into it and
 * proposes none of them again while it is broken, instead of writing a second candidate.
 */
export type BrokenCandidate = { id: string; file: string; problem: string; line?: number; hashes: string[] };
/**
 * `candidate`: the id the candidate had (absent in decisions written before it was recorded).
 * `held` is never written: `decisions()` gives it for the patterns of a broken candidate file.
 */
export type Decision = {
  hash: string;
  decision: 'approved' | 'rejected' | 'held';
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
  /**
   * Patterns not to propose again: approved, rejected, and held by a candidate file that cannot be
   * read (until it is fixed or its folder deleted).
   */
  decisions(): Map<string, Decision>;
};

/**
 * How old a temporary file of a writer that is gone must be before it is removed: a write takes
 * milliseconds, and a writer in another pid namespace (a container sharing the repository) looks
 * gone while it writes. The code cache waits as long for its own (code-cache.ts).
 */
const ABANDONED_MS = 60_000;

const olderThan = (path: string, nowMs: number) => {
  const stat = statSync(path, { throwIfNoEntry: false });
  return stat !== undefined && nowMs - stat.mtimeMs > ABANDONED_MS;
};

/**
 * Removes what a write killed part way left in a candidate's folder: its temporary files (lore's
 * own names only, of a process that is gone, a minute old), and the folder itself when a create
 * was killed before its file was in place and nothing else is there (a minute after its last
 * change: a create writes its file the moment it has claimed the folder).
 */
function sweepFolder(folder: string, nowMs: number): void {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return;
  }
  // asked before the sweep, which makes the folder new again
  const settled = olderThan(folder, nowMs);
  const left = names.filter((name) => {
    const path = join(folder, name);
    if (!isAbandonedTemp(name) || !olderThan(path, nowMs)) return true;
    unlinkQuietly(path);
    return false;
  });
  if (left.length > 0 || !settled) return;
  try {
    rmdirSync(folder); // fails, and keeps it, if a file came in meanwhile
  } catch {
    // not empty, or gone already
  }
}

/** The one candidate whose id starts with `ref`; ambiguous and missing refs are refused with what to do. */
export function pickCandidate<C extends { id: string }>(ref: string, candidates: readonly C[]): C {
  const wanted = ref.trim().toLowerCase();
  // an unset shell variable, as the lesson verbs say it
  if (wanted === '')
    throw new LoreError('usage', 'no candidate given', {
      hint: 'pass a candidate id or a unique id prefix (`lore candidates list` shows them)',
    });
  const matches = candidates.filter((c) => c.id.startsWith(wanted));
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

/** The line of a field named by a shape problem (`summary`, `capture.kind`), when it can be found. */
function lineOfField(text: string, problem: string): number | undefined {
  const path = /^([\w.]+) must /.exec(problem)?.[1]?.split('.') ?? [];
  const lines = text.split('\n');
  let from = 0;
  for (const [depth, key] of path.entries()) {
    const pattern = new RegExp(`^${depth === 0 ? '' : '\\s+'}${key}:`);
    const at = lines.findIndex((line, i) => i >= from && pattern.test(line));
    if (at < 0) return undefined;
    from = at;
  }
  return path.length > 0 ? from + 1 : undefined;
}

/** The content hashes a candidate file still names, read leniently: its YAML may not parse. */
function hashesInText(text: string, parsed: unknown): string[] {
  const record = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Partial<CandidateRecord>;
  const own = typeof record.contentHash === 'string' ? [record.contentHash] : [];
  const taken = Array.isArray(record.capture?.hashes)
    ? record.capture.hashes.filter((hash): hash is string => typeof hash === 'string')
    : [];
  if (own.length > 0) return [...own, ...taken];
  const line = /^contentHash:[ \t]*["']?([0-9a-f]{6,})["']?[ \t]*$/m.exec(text);
  return line?.[1] ? [line[1]] : [];
}

/** The hashes a candidate's sidecar names (none when it is missing or unreadable). */
function readHashes(file: string): string[] {
  try {
    const hashes = (JSON.parse(readFileSync(file, 'utf8')) as { hashes?: unknown }).hashes;
    return Array.isArray(hashes) ? hashes.filter((hash): hash is string => typeof hash === 'string') : [];
  } catch {
    return [];
  }
}

/** The candidate in `<dir>/<id>/`, or why its file cannot serve as one (undefined when there is no file). */
function examineCandidate(dir: string, id: string): StoredCandidate | BrokenCandidate | undefined {
  const file = join(dir, id, FILE);
  const broken = (problem: string, line: number | undefined, found: string[]): BrokenCandidate => ({
    id,
    file,
    problem,
    ...(line !== undefined ? { line } : {}),
    hashes: [...new Set([...readHashes(join(dir, id, IDENTITY)), ...found])],
  });
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    return broken(`cannot be read (${(error as Error).message})`, undefined, []);
  }
  let record: unknown;
  try {
    record = parse(text);
  } catch (error) {
    const line = (error as { linePos?: { line: number }[] }).linePos?.[0]?.line;
    const message = (error as Error).message.split('\n')[0]?.replace(/:$/, '') ?? '';
    return broken(`invalid YAML: ${message}`, line, hashesInText(text, undefined));
  }
  const problem = candidateShapeProblem(record);
  return problem === undefined
    ? { id, file: file, record: record as CandidateRecord }
    : broken(problem, lineOfField(text, problem), hashesInText(text, record));
}

export function openCandidateStore(layout: TierLayout): CandidateStore {
  const dir = join(layout.dir, CANDIDATES_DIR);
  const fileOf = (id: string) => join(dir, id, FILE);
  const identityOf = (id: string) => join(dir, id, IDENTITY);
  const readIdentity = (id: string) => readHashes(identityOf(id));
  const writeIdentity = (id: string, record: CandidateRecord) =>
    writeFileAtomic(identityOf(id), `${JSON.stringify({ hashes: candidateHashes(record) })}\n`);
  const examine = (id: string) => examineCandidate(dir, id);
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
  /** The broken files the last survey found: a scan lists, then asks for decisions. */
  let lastBroken: BrokenCandidate[] | undefined;
  const store: CandidateStore = {
    dir,
    list() {
      return store.survey().candidates;
    },
    survey() {
      const candidates: StoredCandidate[] = [];
      const broken: BrokenCandidate[] = [];
      const nowMs = Date.now();
      for (const id of names()) {
        sweepFolder(join(dir, id), nowMs);
        const found = examine(id);
        if (found === undefined) continue;
        if ('record' in found) candidates.push(found);
        else broken.push(found);
      }
      lastBroken = broken;
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
        writeIdentity(id, record);
        writeFileAtomic(fileOf(id), serializeCandidate(record));
        return { id, file: fileOf(id), record };
      }
      throw new Error('could not allocate a candidate id after 16 attempts');
    },
    update(id, change) {
      return withLocks([lockOf(id)], () => {
        sweepFolder(join(dir, id), Date.now());
        const current = read(id);
        if (!current) throw new LoreError('not-found', `candidate ${id} is gone`);
        const record = change(current.record);
        // The same record back: nothing changed, nothing to write.
        if (record !== current.record) {
          const before = candidateHashes(current.record).join(' ');
          // a candidate of an older lore gets its sidecar on its first write
          if (candidateHashes(record).join(' ') !== before || readIdentity(id).length === 0)
            writeIdentity(id, record);
          writeFileAtomic(fileOf(id), serializeCandidate(record));
        }
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
      for (const found of lastBroken ?? store.survey().broken)
        for (const hash of found.hashes)
          out.set(hash, { hash, decision: 'held', at: '', candidate: found.id });
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
