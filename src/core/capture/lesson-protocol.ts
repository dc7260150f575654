/**
 * How well agents follow the `#lesson` protocol (lessons-learned's success metric): in one reply,
 * the blocks that make a lesson, and the malformed ones: an opener never closed, or a closed block
 * with neither a mistake nor a fix (which `parseLessonBlocks` silently drops). Pure.
 */
import { lessonClosers, lessonOpeners, parseLessonBlocks } from './lesson-block.js';

export type MalformedBlock = { reason: 'unclosed' | 'empty'; excerpt: string };
export type BlockAudit = { blocks: number; malformed: MalformedBlock[] };

/**
 * An opener is closed when a closer comes before the next opener. In one pass over the openers
 * and closers (a search of the rest of the text from every opener took quadratic time).
 */
export function auditLessonBlocks(text: string): BlockAudit {
  if (!text.includes('#lesson')) return { blocks: 0, malformed: [] };
  const blocks = parseLessonBlocks(text).length;
  const malformed: MalformedBlock[] = [];
  const openers = lessonOpeners(text);
  const closers = lessonClosers(text);
  let closed = 0;
  let c = 0;
  for (const [i, opener] of openers.entries()) {
    const next = openers[i + 1]?.index ?? text.length;
    while (c < closers.length && (closers[c] as { index: number }).index < opener.end) c += 1;
    const closer = closers[c];
    const excerpt = text.slice(opener.index, opener.end).trim().slice(0, 80);
    if (closer !== undefined && closer.end <= next) closed += 1;
    else malformed.push({ reason: 'unclosed', excerpt });
  }
  for (let i = blocks; i < closed; i++) malformed.push({ reason: 'empty', excerpt: '#lesson' });
  return { blocks, malformed };
}

export type SessionProtocol = { session: string; agent: string; blocks: number; malformed: number };

export type ProtocolReport = {
  sessions: number;
  /** Sessions with at least one well-formed block. */
  following: number;
  blocks: number;
  malformed: number;
  /** Well-formed blocks per session, over all sessions read. */
  blocksPerSession: number;
  /** Malformed share of every block the agents started. */
  malformedRatio: number;
  bySession: SessionProtocol[];
};

export function summarizeProtocol(sessions: readonly SessionProtocol[]): ProtocolReport {
  const blocks = sessions.reduce((sum, s) => sum + s.blocks, 0);
  const malformed = sessions.reduce((sum, s) => sum + s.malformed, 0);
  const round = (n: number) => Math.round(n * 1000) / 1000;
  return {
    sessions: sessions.length,
    following: sessions.filter((s) => s.blocks > 0).length,
    blocks,
    malformed,
    blocksPerSession: sessions.length === 0 ? 0 : round(blocks / sessions.length),
    malformedRatio: blocks + malformed === 0 ? 0 : round(malformed / (blocks + malformed)),
    bySession: [...sessions].sort(
      (a, b) => b.blocks + b.malformed - (a.blocks + a.malformed) || (a.session < b.session ? -1 : 1),
    ),
  };
}
