/**
 * Every event a reader makes of one transcript file, in order, read the way `lore scan` reads it
 * (the same readers and the same line splitting), for the readers' contract tests and the capture
 * eval's look at what a missed episode's lines hold.
 */
import type { TranscriptEvent } from '../core/capture/events.js';
import { READERS, detectAgent } from './readers.js';
import type { TranscriptReader } from './reader.js';
import { scanFile } from './scan-file.js';

export type FileEvents = {
  events: TranscriptEvent[];
  /** Lines read. */
  lines: number;
  /** Lines that were not valid records, skipped and counted. */
  broken: number;
  /**
   * A last line without its newline was left unread (not a whole record, or the file was written
   * to in the last minutes: scan-file.ts QUIET_MS); plain logs only.
   */
  unreadTail: boolean;
};

export function fileEvents(path: string, shown = path): FileEvents {
  const reader = READERS[detectAgent(path) ?? 'claude-code'];
  const events: TranscriptEvent[] = [];
  const tap = (out: TranscriptEvent[]): TranscriptEvent[] => {
    events.push(...out);
    return out;
  };
  const tapped: TranscriptReader = {
    ...reader,
    createParser: (context) => {
      const parser = reader.createParser(context);
      return {
        ...parser,
        parse: (record, line) => tap(parser.parse(record, line)),
        ...(parser.salvage === undefined
          ? {}
          : { salvage: (line: Buffer, n: number) => tap(parser.salvage?.(line, n) ?? []) }),
        flush: () => tap(parser.flush()),
      };
    },
    parseDocument: reader.parseDocument
      ? (text, context) => tap(reader.parseDocument?.(text, context) ?? [])
      : undefined,
  };
  const scan = scanFile({
    reader: tapped,
    path,
    shown,
    previous: undefined,
    detector: { window: 40 },
    keep: (event) => event,
  });
  const unreadTail = !path.endsWith('.zst') && scan.state.offset < scan.state.size;
  return { events, lines: scan.state.line, broken: scan.state.malformed, unreadTail };
}
