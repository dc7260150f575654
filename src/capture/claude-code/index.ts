/** The Claude Code transcript reader. */
import type { TranscriptReader } from '../reader.js';
import { createClaudeParser } from './parser.js';
import { isClaudeSidechain, isClaudeTranscript } from './paths.js';

export const claudeCodeReader: TranscriptReader = {
  agent: 'claude-code',
  isTranscript: isClaudeTranscript,
  isDocument: () => false,
  isSidechain: isClaudeSidechain,
  projectOf: () => undefined,
  createParser: createClaudeParser,
};
