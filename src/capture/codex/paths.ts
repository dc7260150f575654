/**
 * Where Codex CLI keeps transcripts: `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl` (default
 * `~/.codex`), cold ones compressed to `rollout-*.jsonl.zst`. The only file of this reader that
 * reads the environment.
 */
import { join, resolve } from 'node:path';

export function codexSessionDirs(env: NodeJS.ProcessEnv, home: string): string[] {
  const codexHome = env.CODEX_HOME?.trim();
  const base = codexHome !== undefined && codexHome !== '' ? resolve(codexHome) : join(home, '.codex');
  return [join(base, 'sessions'), join(base, 'archived_sessions')];
}

export function isCodexTranscript(path: string): boolean {
  return /(^|\/)rollout-[^/]*\.jsonl(\.zst)?$/.test(path);
}
