/**
 * Where Claude Code keeps transcripts: `$CLAUDE_CONFIG_DIR/projects` (default `~/.claude/projects`),
 * one folder per project (`-home-me-work-repo`), `<session>.jsonl` in it, subagents as
 * `agent-*.jsonl` beside it (2.0.x) or under `<session>/subagents/` (2.1.x). The only file of this
 * reader that reads the environment.
 */
import { join, resolve } from 'node:path';

export function claudeProjectsDirs(env: NodeJS.ProcessEnv, home: string): string[] {
  const dirs: string[] = [];
  for (const configDir of (env.CLAUDE_CONFIG_DIR ?? '').split(',')) {
    if (configDir.trim() !== '') dirs.push(join(resolve(configDir.trim()), 'projects'));
  }
  if (dirs.length === 0) dirs.push(join(home, '.claude', 'projects'));
  return dirs;
}

export function isClaudeTranscript(path: string): boolean {
  return path.endsWith('.jsonl') && !/(^|\/)(history|\.)[^/]*$/.test(path.slice(path.lastIndexOf('/') + 1));
}

export function isClaudeSidechain(path: string): boolean {
  return /(^|\/)agent-[^/]*\.jsonl$/.test(path) || path.includes('/subagents/');
}
