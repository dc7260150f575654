/** The Gemini CLI transcript reader (upsert-log `.jsonl` and single-document `.json`). */
import type { TranscriptReader } from '../reader.js';
import { createGeminiParser, parseGeminiDocument } from './parser.js';
import { geminiProjectOf, isGeminiDocument, isGeminiTranscript } from './paths.js';

export const geminiReader: TranscriptReader = {
  agent: 'gemini',
  isTranscript: isGeminiTranscript,
  isDocument: isGeminiDocument,
  isSidechain: () => false,
  projectOf: geminiProjectOf,
  createParser: createGeminiParser,
  parseDocument: parseGeminiDocument,
};
