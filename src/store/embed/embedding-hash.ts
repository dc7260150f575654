/** The embeddings cache's key for a text (with the model's name): 128 bits of its SHA-256. */
import { createHash } from 'node:crypto';

export function embeddingHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}
