/** The embeddings cache's key for a text (with the model's name): 128 bits of its SHA-256. */

export function embeddingHash(text: string): string {
  // node:crypto on first use, as in fs-atomic.ts
  return process.getBuiltinModule('node:crypto').createHash('sha256').update(text).digest('hex').slice(0, 32);
}
