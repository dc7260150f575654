/**
 * `LEARNING_HELPFUL: <id>` and `LEARNING_NOT_HELPFUL: <id>` in an agent's own words: the agent
 * judging a lesson it was shown. Read from the last assistant message by the Stop hook and from
 * assistant messages by the transcript scanner. Pure and dependency-free: the hook imports it.
 */
export type FeedbackMarker = { ref: string; helpful: boolean };

const MARKER = /\bLEARNING_(HELPFUL|NOT_HELPFUL):[ \t]*`?([0-9A-Za-z][0-9A-Za-z-]{0,79})`?/g;

/** Cheap test before the regex: both markers share this text. */
export const MARKER_PREFIX = 'LEARNING_';

/** Every marker in `text`, once per (lesson, verdict), in order of first appearance. */
export function findFeedbackMarkers(text: string): FeedbackMarker[] {
  if (!text.includes(MARKER_PREFIX)) return [];
  const seen = new Set<string>();
  const out: FeedbackMarker[] = [];
  for (const match of text.matchAll(MARKER)) {
    const helpful = match[1] === 'HELPFUL';
    const ref = (match[2] as string).toLowerCase();
    const key = `${ref}:${helpful}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ ref, helpful });
  }
  return out;
}
