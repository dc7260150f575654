/**
 * Per-session dedup state of the hook, in the OS temp directory, keyed by a hash of the session
 * id. Claims are session-wide; the seen-set records which agent context each lesson went to:
 *
 *   <tmp>/lore-hook-<uid>/<fnv(session)>/seen         "id priority scope" lines, O_APPEND
 *   <tmp>/lore-hook-<uid>/<fnv(session)>/claims/<id>  created with O_EXCL
 *
 * A lesson goes out only to the process that creates its claim file, so two hook processes
 * running in parallel anywhere in one session (parallel tool calls, two subagents) never inject
 * the same lesson twice. The scope (`main`, or `agent-<fnv(agent id)>` for a subagent) is each
 * agent's own view: what this context was shown (the per-context cap counts it) and, for the
 * audit log and `lore explain`, whether a lesson was held back because another agent of the
 * session got it. Nothing is created until the first claim: most calls only read one file.
 * Node built-ins only: the hook imports this.
 */
import {
  appendFileSync,
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

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

export function sessionRoot(tmp: string, sessionId: string, uid: number | string): string {
  return join(tmp, `lore-hook-${uid}`, hash(sessionId));
}

/** The name an agent context is recorded under in the seen-set. */
export function scopeName(agentId: string): string {
  return agentId === 'main' ? 'main' : `agent-${hash(agentId)}`;
}

/** Removes the whole session's state (`/clear`). */
export function wipeSession(tmp: string, sessionId: string, uid: number | string): void {
  try {
    rmSync(sessionRoot(tmp, sessionId, uid), { recursive: true, force: true });
  } catch {
    // nothing to wipe, or not ours
  }
}

/** Lesson ids, and the names of aggregated tool skills (`lore-pytest`): file-name safe. */
const ID = /^[0-9a-z][0-9a-z-]{0,63}$/;

export function openSessionState(
  tmp: string,
  sessionId: string,
  agentId: string,
  uid: number | string,
): SessionState {
  const dir = sessionRoot(tmp, sessionId, uid);
  const claims = join(dir, 'claims');
  const seenFile = join(dir, 'seen');
  const scope = scopeName(agentId);
  const entries = new Map<string, number>();
  const scopes = new Map<string, string>();
  let available = true;
  try {
    // No file yet is the common case (nothing shown in this session): a stat, not a thrown ENOENT.
    const text =
      statSync(seenFile, { throwIfNoEntry: false }) === undefined ? '' : readFileSync(seenFile, 'utf8');
    for (const line of text.split('\n')) {
      const [id, priority, owner] = line.split(' ');
      if (id === undefined || !ID.test(id)) continue;
      entries.set(id, Number(priority) || 0);
      scopes.set(id, owner || 'main');
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') available = false;
  }
  const seen = new Set<string>();
  const seenElsewhere = new Set<string>();
  for (const [id, owner] of scopes) (owner === scope ? seen : seenElsewhere).add(id);
  let created = false;
  const ensureDir = () => {
    if (!created) mkdirSync(claims, { recursive: true, mode: 0o700 });
    created = true;
  };
  return {
    get available() {
      return available;
    },
    seen,
    seenElsewhere,
    entries,
    claim(id, priority) {
      if (!available || !ID.test(id)) return false;
      try {
        ensureDir();
      } catch {
        available = false;
        return false;
      }
      try {
        closeSync(openSync(join(claims, id), 'wx', 0o600));
        appendFileSync(seenFile, `${id} ${priority} ${scope}\n`);
      } catch {
        return false;
      }
      seen.add(id);
      entries.set(id, priority);
      scopes.set(id, scope);
      return true;
    },
    forget(ids) {
      if (!available || ids.length === 0) return;
      for (const id of ids) {
        entries.delete(id);
        scopes.delete(id);
        seen.delete(id);
        seenElsewhere.delete(id);
        try {
          unlinkSync(join(claims, id));
        } catch {
          // not claimed
        }
      }
      try {
        writeFileSync(
          seenFile,
          [...entries].map(([id, p]) => `${id} ${p} ${scopes.get(id) ?? 'main'}\n`).join(''),
        );
      } catch {
        available = false;
      }
    },
  };
}
