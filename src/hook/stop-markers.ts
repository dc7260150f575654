/**
 * The Stop hook: reads `LEARNING_HELPFUL: <id>` / `LEARNING_NOT_HELPFUL: <id>` from the agent's
 * last message (`last_assistant_message` in the payload; otherwise the last assistant line of the
 * transcript) and hands each to `lore feedback --session` in the background, which records it once
 * per session and verdict and moves the lesson's confidence. The hook itself writes nothing and
 * answers `{}`: a Stop hook that printed a decision could keep the agent running.
 */
import { findFeedbackMarkers, MARKER_PREFIX } from '../core/feedback/feedback-markers.js';
import type { FeedbackMarker } from '../core/feedback/feedback-markers.js';
import { findHookCache } from '../store/fs/paths.js';
import { readTail } from '../store/fs/read-tail.js';

export type FeedbackRequest = { cwd: string; session: string; markers: FeedbackMarker[] };

const TAIL_BYTES = 512 * 1024;

/**
 * The text of the last assistant message in a Claude Code transcript, from its last 512 KB. With
 * `needle`, a tail that does not hold it at all answers '' before anything is decoded or parsed.
 */
export function lastAssistantText(transcriptPath: string, needle?: string): string {
  let buffer: Buffer;
  try {
    buffer = readTail(transcriptPath, TAIL_BYTES).bytes;
  } catch {
    return '';
  }
  if (needle !== undefined && !buffer.includes(needle)) return '';
  const lines = buffer.toString('utf8').split('\n');
  for (let i = lines.length - 1; i >= 0; i -= 1) {
    const line = lines[i] as string;
    if (!line.includes('"assistant"')) continue;
    let record: { type?: unknown; message?: { role?: unknown; content?: unknown } };
    try {
      record = JSON.parse(line) as typeof record;
    } catch {
      continue;
    }
    if (record.type !== 'assistant' && record.message?.role !== 'assistant') continue;
    const content = record.message?.content;
    if (typeof content === 'string') return content;
    if (!Array.isArray(content)) continue;
    const texts = content
      .filter(
        (part): part is { type: string; text: string } =>
          part?.type === 'text' && typeof part.text === 'string',
      )
      .map((part) => part.text);
    if (texts.length > 0) return texts.join('\n');
  }
  return '';
}

export function handleStop(
  raw: Record<string, unknown>,
  deps: {
    env: NodeJS.ProcessEnv;
    home?: string;
    cwd: string;
    recordFeedback?: (request: FeedbackRequest) => boolean;
  },
): Record<string, unknown> {
  const session = typeof raw.session_id === 'string' ? raw.session_id : '';
  if (session === '') return { skipped: 'Stop without a session id' };
  const cwd = typeof raw.cwd === 'string' && raw.cwd !== '' ? raw.cwd : deps.cwd;
  let text = typeof raw.last_assistant_message === 'string' ? raw.last_assistant_message : undefined;
  if (text === undefined && typeof raw.transcript_path === 'string')
    text = lastAssistantText(raw.transcript_path, MARKER_PREFIX);
  if (text === undefined || !text.includes(MARKER_PREFIX)) return { markers: 0 };
  const markers = findFeedbackMarkers(text);
  if (markers.length === 0) return { markers: 0 };
  const place = findHookCache(cwd, deps.env, deps.home);
  if (place === undefined) return { skipped: 'no lessons here' };
  if (place.disabled) return { skipped: 'disabled by `lore disable`' };
  const projectRoot = place.projectRoot;
  const started = deps.recordFeedback?.({ cwd: projectRoot ?? cwd, session, markers }) ?? false;
  return { markers: markers.length, feedback: started ? 'started' : 'no lore CLI found' };
}
