/**
 * Where Gemini CLI keeps transcripts: `~/.gemini/tmp/<project>/chats/session-*.jsonl` (an upsert
 * log) and, in older versions, `session-*.json` (one JSON document). `<project>` is a hash of the
 * project path or a short name; `.project_root` in that folder holds the path when Gemini wrote
 * one. `GEMINI_CLI_HOME` moves the `.gemini` folder (read in src/store/fs/agent-homes.ts).
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { geminiHome } from '../../store/fs/agent-homes.js';

export function geminiTmpDirs(env: NodeJS.ProcessEnv, home: string): string[] {
  return [join(geminiHome(env, home), 'tmp')];
}

export function isGeminiTranscript(path: string): boolean {
  return /(^|\/)chats\/[^/]+\.jsonl?$/.test(path) || /(^|\/)session-[^/]*\.jsonl?$/.test(path);
}

export function isGeminiDocument(path: string): boolean {
  return path.endsWith('.json');
}

/** `<tmp>/<project>/chats/<file>` → the project path from `.project_root`, else the folder name. */
export function geminiProjectOf(path: string): string | undefined {
  const chats = dirname(path);
  if (basename(chats) !== 'chats') return undefined;
  const projectDir = dirname(chats);
  try {
    const root = readFileSync(join(projectDir, '.project_root'), 'utf8').trim();
    if (root !== '') return root;
  } catch {
    // older versions write no .project_root: the folder name (a hash) stands for the project
  }
  return basename(projectDir);
}
