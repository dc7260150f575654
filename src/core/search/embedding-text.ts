/**
 * What an embedding model is shown of a lesson or a doc, and the cosine similarity of two vectors.
 * The text is fixed here, once: the embeddings cache is keyed by a hash of it, so changing what
 * goes in re-embeds every lesson on the next `lore sync --embed`.
 */
import type { Lesson } from '../lesson/schema.js';

/** Whole-text cap: embedding models read 512-8,192 tokens; the summary and the start matter most. */
export const EMBEDDING_TEXT_MAX = 4000;

function clip(text: string): string {
  return text.length <= EMBEDDING_TEXT_MAX ? text : text.slice(0, EMBEDDING_TEXT_MAX);
}

/** A lesson's summary, then its prose: mistake, remediation and body (the words a person reads). */
export function lessonEmbeddingText(
  lesson: Pick<Lesson, 'summary' | 'mistake' | 'remediation' | 'body'>,
): string {
  const parts = [lesson.summary, lesson.mistake, lesson.remediation, lesson.body];
  return clip(
    parts
      .filter((part): part is string => typeof part === 'string' && part.trim() !== '')
      .map((part) => part.trim())
      .join('\n\n'),
  );
}

/** A doc's summary, then its body. */
export function docEmbeddingText(summary: string, body: string): string {
  return clip([summary.trim(), body.trim()].filter((part) => part !== '').join('\n\n'));
}

/** Cosine similarity in -1..1; 0 when either vector is all zeros or their lengths differ. */
export function cosineSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
