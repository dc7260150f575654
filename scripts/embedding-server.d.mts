// Types of embedding-server.mjs, for the tests that start it.
export type EmbeddingServerMode = 'ok' | 'hang' | 'status500' | 'wrongDim' | 'garbage';
export type EmbeddingRequest = {
  path: string;
  headers: Record<string, unknown>;
  model: unknown;
  input: string[];
};
export const SYNONYMS: Record<string, string[]>;
export function synonymsFingerprint(): string;
export function embedText(text: string, dimensions: number): number[];
export function startEmbeddingServer(options?: { dimensions?: number; mode?: EmbeddingServerMode }): Promise<{
  url: string;
  dimensions: number;
  requests: EmbeddingRequest[];
  setMode(mode: EmbeddingServerMode): void;
  close(): Promise<void>;
}>;
