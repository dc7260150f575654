/**
 * Where Claude Code keeps transcripts: `$CLAUDE_CONFIG_DIR/projects` (default `~/.claude/projects`),
 * one folder per project (`-home-me-work-repo`), `<session>.jsonl` in it, subagents as
 * `agent-*.jsonl` beside it (2.0.x) or under `<session>/subagents/` (2.1.x). The folders come from
 * src/store/fs/agent-homes.ts, the one reader of the agents' environment variables.
 */
import { join } from 'node:path';
import { claudeConfigDirs } from '../../store/fs/agent-homes.js';

export function claudeProjectsDirs(env: NodeJS.ProcessEnv, home: string): string[] {
  return claudeConfigDirs(env, home).map((dir) => join(dir, 'projects'));
}

export function isClaudeTranscript(path: string): boolean {
  return path.endsWith('.jsonl') && !/(^|\/)(history|\.)[^/]*$/.test(path.slice(path.lastIndexOf('/') + 1));
}

export function isClaudeSidechain(path: string): boolean {
  return /(^|\/)agent-[^/]*\.jsonl$/.test(path) || path.includes('/subagents/');
}
