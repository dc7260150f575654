/** The Codex CLI transcript reader (`.jsonl`, and `.jsonl.zst` decompressed as a stream). */
import type { TranscriptReader } from '../reader.js';
import { createCodexParser } from './parser.js';
import { isCodexTranscript } from './paths.js';

export const codexReader: TranscriptReader = {
  agent: 'codex',
  isTranscript: isCodexTranscript,
  isDocument: () => false,
  isSidechain: () => false,
  projectOf: () => undefined,
  createParser: createCodexParser,
};
