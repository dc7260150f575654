/**
 * The folders `lore scan`, `lore replay` and `lore protocol` read when no `--path` is given: each
 * agent's default transcript folders, from the environment (src/store/fs/agent-homes.ts). Apart
 * from the readers (readers.ts), which load every parser: the no-change check of `lore scan`
 * (scan-stamp.ts) needs the folders and nothing else.
 */
import { AGENTS } from '../core/capture/events.js';
import type { Agent } from '../core/capture/events.js';
import { claudeProjectsDirs } from './claude-code/paths.js';
import { codexSessionDirs } from './codex/paths.js';
import { geminiTmpDirs } from './gemini/paths.js';
import type { ScanRoot } from './scan-transcripts.js';

/** Where each agent keeps transcripts by default (see its paths.ts). */
const AGENT_FOLDERS: Record<Agent, (env: NodeJS.ProcessEnv, home: string) => string[]> = {
  'claude-code': claudeProjectsDirs,
  codex: codexSessionDirs,
  gemini: geminiTmpDirs,
};

/** The default folders of every agent (or of one), from the environment. */
export function defaultRoots(env: NodeJS.ProcessEnv, home: string, source?: Agent): ScanRoot[] {
  const agents = source ? [source] : AGENTS;
  return agents.flatMap((agent) => AGENT_FOLDERS[agent](env, home).map((path) => ({ path, agent })));
}
