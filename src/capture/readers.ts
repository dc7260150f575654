/**
 * Every transcript reader, and how a file found under a `--path` is matched to one: by name
 * (`rollout-*` is Codex, `*.json` and `chats/` are Gemini) and, for other `.jsonl` files, by a
 * look at their first bytes.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import type { Agent } from '../core/capture/events.js';
import { claudeCodeReader } from './claude-code/index.js';
import { codexReader } from './codex/index.js';
import { geminiReader } from './gemini/index.js';
import type { TranscriptReader } from './reader.js';
import { readErrorReason } from './walk-files.js';
import type { SkippedPath } from './walk-files.js';

export const READERS: Record<Agent, TranscriptReader> = {
  'claude-code': claudeCodeReader,
  codex: codexReader,
  gemini: geminiReader,
};

function head(path: string, size = 4096): string {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(size);
    const read = readSync(fd, buffer, 0, size, 0);
    return buffer.subarray(0, read).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** Which agent wrote this file, or undefined when it is no transcript lore knows. */
export function detectAgent(path: string): Agent | undefined {
  if (codexReader.isTranscript(path)) return 'codex';
  if (path.endsWith('.meta.json')) return undefined;
  if (path.endsWith('.json')) {
    const start = head(path, 2048);
    return /"sessionId"/.test(start) && /"messages"|"projectHash"/.test(start) ? 'gemini' : undefined;
  }
  if (!path.endsWith('.jsonl')) return undefined;
  const start = head(path);
  if (/^\{"timestamp":"[^"]*","type":"(session_meta|response_item|event_msg|turn_context)"/.test(start))
    return 'codex';
  if (/^\{"sessionId":"[^"]*","projectHash"/.test(start) || /"\$set":\{/.test(start.split('\n')[1] ?? ''))
    return 'gemini';
  if (/"sessionId"|"type":"(user|assistant|summary|queue-operation|file-history-snapshot)"/.test(start))
    return 'claude-code';
  return undefined;
}

/**
 * `detectAgent`, with a file that cannot be opened (no permission to read it) passed to
 * `onSkipped` and left out; one deleted meanwhile is left out silently.
 */
export function detectAgentOrSkip(path: string, onSkipped: (file: SkippedPath) => void): Agent | undefined {
  try {
    return detectAgent(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      onSkipped({ path, reason: readErrorReason(error), folder: false });
    return undefined;
  }
}
