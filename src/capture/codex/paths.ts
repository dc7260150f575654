/**
 * Where Codex CLI keeps transcripts: `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl` (default
 * `~/.codex`), cold ones compressed to `rollout-*.jsonl.zst`. `$CODEX_HOME` is read in
 * src/store/fs/agent-homes.ts.
 */
import { join } from 'node:path';
import { codexHome } from '../../store/fs/agent-homes.js';

export function codexSessionDirs(env: NodeJS.ProcessEnv, home: string): string[] {
  const base = codexHome(env, home);
  return [join(base, 'sessions'), join(base, 'archived_sessions')];
}

export function isCodexTranscript(path: string): boolean {
  return /(^|\/)rollout-[^/]*\.jsonl(\.zst)?$/.test(path);
}
