/**
 * Per-session dedup state of the hook, in the OS temp directory: one append-only file per
 * session, named by a hash of the session id.
 *
 *   <tmp>/lore-hook-<uid>/<fnv(session)>.claims   O_APPEND lines:
 *     "<id> <priority> <scope> <token>"   a claim: <token> is the claiming process's own
 *     "- <id>"                            forget: the claims of <id> before it no longer count
 *
 * A lesson goes out only from the process whose claim is the first line for it (since its last
 * forget): a process appends its claim and reads the file back. Appends of one short line are
 * atomic with O_APPEND, so two hook processes running in parallel anywhere in one session
 * (parallel tool calls, two subagents) agree on the winner and never inject the same lesson
 * twice. One file and no directory per session: creating files costs this machine's ext4 a third
 * of a millisecond each. The scope (`main`, or `agent-<fnv(agent id)>` for a subagent) is each
 * agent's own view: what this context was shown (the per-context cap counts it) and, for the
 * audit log and `lore explain`, whether a lesson was held back because another agent of the
 * session got it. Nothing is created until the first claim: most calls only stat one file.
 * Node built-ins only: the hook imports this.
 */
import { lstatSync, mkdirSync, readFileSync, rmSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { appendText } from '../fs/fs-atomic.js';
import { everyChar, isLowerAlnum } from '../../core/inject/char-class.js';

/** A lesson to claim, at the priority a compaction compares with `inject.compactForgetPriority`. */
export type LessonClaim = { id: string; priority: number };

export type SessionState = {
  /** False when the state cannot be read or written: no dedup is possible. */
  available: boolean;
  /** Lesson ids already shown in this agent's context. */
  seen: Set<string>;
  /** Lesson ids shown to other agents of the session (held back here too). */
  seenElsewhere: Set<string>;
  /** id -> priority of everything shown in the session, any agent. */
  entries: Map<string, number>;
  /** Claims a lesson for the session; false if it was already claimed (or cannot be). */
  claim(id: string, priority: number): boolean;
  /**
   * Claims lessons at once (one append, one read back: a claim costs a hook ~0.1 ms of file
   * calls): the ids this process got, each as `claim` would have.
   */
  claimAll(wanted: readonly LessonClaim[]): Set<string>;
  /** Forgets lessons session-wide (after a compaction they may be shown again). */
  forget(ids: readonly string[]): void;
};

/**
 * Two 32-bit FNV-1a hashes (different offsets) as 16 hex digits: a stable directory name for a
 * session id. Not node:crypto, whose first use costs ~7 ms of OpenSSL start-up in the hook.
 */
export function hashId(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x01000193 + 0x2f) >>> 0;
  }
  return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
}

const hash = hashId;

/** A claims file larger than this is not one lore wrote (a session claims a few hundred lessons at most). */
const MAX_CLAIMS_BYTES = 1 << 20;

/**
 * What stands at the hook state folder, with one lstat: `own` (a directory, not a link, the
 * user's, writable by no one else), `missing` (the first claim creates it), or `untrusted`
 * (anything else, or a path that cannot be looked at).
 */
function folderState(dir: string, uid: number | string): 'own' | 'missing' | 'untrusted' {
  let stat;
  try {
    stat = lstatSync(dir, { throwIfNoEntry: false });
  } catch {
    return 'untrusted'; // a path through a file (ENOTDIR), no permission
  }
  if (stat === undefined) return 'missing';
  if (!stat.isDirectory()) return 'untrusted';
  // Windows has no such mode bits or owner ids: the user's own temporary folder is private there
  if (process.platform === 'win32') return 'own';
  return (stat.mode & 0o022) === 0 && (typeof uid !== 'number' || stat.uid === uid) ? 'own' : 'untrusted';
}

/** The directory of a user's hook state (sessions, and the hook's code cache). */
export function hookStateDir(tmp: string, uid: number | string): string {
  return join(tmp, `lore-hook-${uid}`);
}

/** The claims file of a session. */
export function sessionFile(tmp: string, sessionId: string, uid: number | string): string {
  return join(hookStateDir(tmp, uid), `${hash(sessionId)}.claims`);
}

/** The name an agent context is recorded under in the seen-set. */
export function scopeName(agentId: string): string {
  return agentId === 'main' ? 'main' : `agent-${hash(agentId)}`;
}

/** Removes the whole session's state (`/clear`). */
export function wipeSession(tmp: string, sessionId: string, uid: number | string): void {
  try {
    unlinkSync(sessionFile(tmp, sessionId, uid));
  } catch {
    // nothing to wipe, or not ours
  }
  try {
    // the layout of lore 0.1 (a directory per session), in case a session spans an upgrade
    rmSync(join(hookStateDir(tmp, uid), hash(sessionId)), { recursive: true, force: true });
  } catch {
    // nothing to wipe
  }
}

/**
 * Lesson ids, and the names of aggregated tool skills (`lore-pytest`): file-name safe,
 * `/^[0-9a-z][0-9a-z-]{0,63}$/` (tested without a regex: char-class.ts).
 */
export function isClaimId(id: string): boolean {
  return (
    id.length >= 1 &&
    id.length <= 64 &&
    isLowerAlnum(id.charCodeAt(0)) &&
    everyChar(id, (c) => isLowerAlnum(c) || c === 45, 1)
  );
}

type Claim = { priority: number; scope: string; token: string };

/** The standing claim of each lesson: the first since its last forget. */
export function parseClaims(text: string): Map<string, Claim> {
  const claims = new Map<string, Claim>();
  for (const line of text.split('\n')) {
    const [id, priority, scope, token] = line.split(' ');
    if (id === '-') {
      if (priority !== undefined) claims.delete(priority);
      continue;
    }
    if (id === undefined || !isClaimId(id) || claims.has(id)) continue;
    claims.set(id, { priority: Number(priority) || 0, scope: scope || 'main', token: token ?? '' });
  }
  return claims;
}

let opened = 0;

export function openSessionState(
  tmp: string,
  sessionId: string,
  agentId: string,
  uid: number | string,
): SessionState {
  const file = sessionFile(tmp, sessionId, uid);
  const scope = scopeName(agentId);
  // what marks this state's own claims in the shared file
  opened += 1;
  const token = `${process.pid}.${opened}.${Math.floor(Math.random() * 0x1000000).toString(36)}`;
  let available = true;
  let claims = new Map<string, Claim>();
  const read = (): boolean => {
    try {
      // No file yet is the common case (nothing shown in this session): a stat, not a thrown ENOENT.
      const stat = lstatSync(file, { throwIfNoEntry: false });
      if (stat !== undefined && (!stat.isFile() || stat.size > MAX_CLAIMS_BYTES))
        throw new Error('not a claims file');
      claims = parseClaims(stat === undefined ? '' : readFileSync(file, 'utf8'));
      return true;
    } catch {
      available = false;
      return false;
    }
  };
  // Each line goes out with its newline first: after a line a killed writer left without its
  // newline, the next one still starts a line of its own (written newline-last, it would have
  // joined the cut line and been lost with it).
  const append = (lines: string[]): boolean => {
    const text = lines.map((line) => `\n${line}`).join('');
    try {
      appendText(file, text, 0o600, { noFollow: true });
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return false;
    }
    try {
      mkdirSync(hookStateDir(tmp, uid), { recursive: true, mode: 0o700 });
      if (folderState(hookStateDir(tmp, uid), uid) !== 'own') return false;
      appendText(file, text, 0o600, { noFollow: true });
      return true;
    } catch {
      return false;
    }
  };
  // A folder someone else made (or can write to) in a shared temporary folder is not used: who
  // can write there could plant links or claims.
  if (folderState(hookStateDir(tmp, uid), uid) === 'untrusted') available = false;
  else read();
  const seen = new Set<string>();
  const seenElsewhere = new Set<string>();
  const entries = new Map<string, number>();
  const refresh = () => {
    seen.clear();
    seenElsewhere.clear();
    entries.clear();
    for (const [id, claim] of claims) {
      (claim.scope === scope ? seen : seenElsewhere).add(id);
      entries.set(id, claim.priority);
    }
  };
  refresh();
  const state: SessionState = {
    get available() {
      return available;
    },
    seen,
    seenElsewhere,
    entries,
    claim(id, priority) {
      return state.claimAll([{ id, priority }]).has(id);
    },
    claimAll(wanted) {
      const got = new Set<string>();
      const fresh = new Map<string, number>();
      for (const { id, priority } of wanted)
        if (isClaimId(id) && !claims.has(id) && !fresh.has(id)) fresh.set(id, priority);
      if (!available || fresh.size === 0) return got;
      // one write: O_APPEND puts the lines together at the end, in this order
      if (!append([...fresh].map(([id, priority]) => `${id} ${priority} ${scope} ${token}`))) {
        available = false;
        return got;
      }
      if (!read()) return got;
      refresh();
      for (const id of fresh.keys()) if (claims.get(id)?.token === token) got.add(id);
      return got;
    },
    forget(ids) {
      const valid = ids.filter((id) => isClaimId(id));
      if (!available || valid.length === 0) return;
      if (!append(valid.map((id) => `- ${id}`))) {
        available = false;
        return;
      }
      for (const id of valid) claims.delete(id);
      refresh();
    },
  };
  return state;
}
