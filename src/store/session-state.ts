/**
 * Per-session dedup state of the hook, in the OS temp directory, keyed by a hash of the session
 * id, one scope per agent context (the main agent, each subagent):
 *
 *   <tmp>/lore-hook-<uid>/<fnv(session)>/<agent>/seen         "id priority" lines, O_APPEND
 *   <tmp>/lore-hook-<uid>/<fnv(session)>/<agent>/claims/<id>  created with O_EXCL
 *
 * A lesson goes out only to the process that creates its claim file, so two hook processes
 * running in parallel in one context (parallel tool calls) never inject the same lesson twice.
 * Node built-ins only: the hook imports this.
 */
import {
  appendFileSync,
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

export type SessionState = {
  /** False when the directory cannot be created or read: no dedup is possible. */
  available: boolean;
  seen: Set<string>;
  /** id -> priority of what this context has been shown. */
  entries: Map<string, number>;
  /** Claims a lesson for this context; false if it was already claimed (or cannot be). */
  claim(id: string, priority: number): boolean;
  /** Forgets lessons (after a compaction they may be shown again). */
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

function scopeName(agentId: string): string {
  return agentId === 'main' ? 'main' : `agent-${hash(agentId)}`;
}

/** Removes every scope of a session (`/clear`). */
export function wipeSession(tmp: string, sessionId: string, uid: number | string): void {
  try {
    rmSync(sessionRoot(tmp, sessionId, uid), { recursive: true, force: true });
  } catch {
    // nothing to wipe, or not ours
  }
}

export function openSessionState(
  tmp: string,
  sessionId: string,
  agentId: string,
  uid: number | string,
): SessionState {
  const dir = join(sessionRoot(tmp, sessionId, uid), scopeName(agentId));
  const claims = join(dir, 'claims');
  const seenFile = join(dir, 'seen');
  const entries = new Map<string, number>();
  let available = true;
  try {
    mkdirSync(claims, { recursive: true, mode: 0o700 });
    let text = '';
    try {
      text = readFileSync(seenFile, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    for (const line of text.split('\n')) {
      const [id, priority] = line.split(' ');
      if (id !== undefined && /^[0-9a-z]{1,32}$/.test(id)) entries.set(id, Number(priority) || 0);
    }
  } catch {
    available = false;
  }
  const seen = new Set(entries.keys());
  return {
    available,
    seen,
    entries,
    claim(id, priority) {
      if (!available || !/^[0-9a-z]{1,32}$/.test(id)) return false;
      try {
        closeSync(openSync(join(claims, id), 'wx', 0o600));
        appendFileSync(seenFile, `${id} ${priority}\n`);
      } catch {
        return false;
      }
      seen.add(id);
      entries.set(id, priority);
      return true;
    },
    forget(ids) {
      if (!available || ids.length === 0) return;
      for (const id of ids) {
        entries.delete(id);
        seen.delete(id);
        try {
          unlinkSync(join(claims, id));
        } catch {
          // not claimed
        }
      }
      try {
        writeFileSync(seenFile, [...entries].map(([id, p]) => `${id} ${p}\n`).join(''));
      } catch {
        available = false;
      }
    },
  };
}
