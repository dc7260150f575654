/**
 * One transcript file, incrementally: compare its signature (size, mtime, inode) with the state
 * of the last scan, read only the bytes after the last complete line, parse the lines the reader
 * wants, and feed the events to the episode detector, which resumes from the newest events of
 * the last scan. A file that shrank, changed inode or was rewritten in place (the bytes before its
 * offset are no longer those read) is read again from the start. Lines whose
 * JSON is broken are counted and reported, and every other line still counts. A `#lesson` block
 * is joined with the heuristic find of its episode before episodes the last scan already reported
 * are dropped, so a block written after a scan still joins the failure found before it.
 */
import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import type { Problem } from '../core/errors.js';
import type { TranscriptEvent } from '../core/capture/events.js';
import type { Episode } from '../core/capture/episode.js';
import { BLOCK_GAP_LINES, joinLessonBlocks } from '../core/capture/block-lesson.js';
import { createEpisodeDetector } from '../core/capture/detect-episodes.js';
import { findFeedbackMarkers, MARKER_PREFIX } from '../core/feedback/feedback-markers.js';
import type { FeedbackMarker } from '../core/feedback/feedback-markers.js';
import type { DetectorOptions, EpisodeDetector } from '../core/capture/detect-episodes.js';
import type { CachedCall } from '../core/breadth/cached-call.js';
import { createCallCollector } from './collect-recent-calls.js';
import { decodeLine } from './compact-line.js';
import { readLinesFrom, readZstdLinesFrom } from './read-lines.js';
import type { ParserCarry, TranscriptReader } from './reader.js';

export type FileState = {
  size: number;
  mtimeMs: number;
  ino: number;
  /** Byte offset after the last complete line read (decompressed bytes for `.zst`). */
  offset: number;
  /**
   * A hash of the bytes just before `offset` (plain logs only): an append leaves them as they
   * were, a file rewritten in place (same inode, as `cat new > old` or a copy-truncate rotation
   * leave it) changes them, and is then read again from the start.
   */
  tail?: string;
  line: number;
  /**
   * The last line was read without its newline (the last record of a finished file): `offset` is
   * the end of that line, and the next read drops what follows up to a newline.
   */
  open?: true;
  /**
   * A last line without its newline was left unread because the file was written to within
   * QUIET_MS: the next scan once the file is quiet reads it, even with the signature unchanged.
   */
  held?: true;
  malformed: number;
  carry: ParserCarry;
  /** The newest events, so an episode that spans two scans is still found (text shortened). */
  recent: TranscriptEvent[];
  /**
   * The newest heuristic find that a #lesson block written in a later scan may still join (within
   * BLOCK_GAP_LINES of the end), when the kept events no longer reach its failure.
   */
  lastFind?: Episode;
};

export type FileScan = {
  state: FileState;
  /** False when the signature matched and nothing was read. */
  changed: boolean;
  bytes: number;
  lines: number;
  malformed: Problem[];
  events: number;
  episodes: Episode[];
  /** `LEARNING_HELPFUL: <id>` / `LEARNING_NOT_HELPFUL: <id>` in the assistant messages read. */
  markers: MarkerHit[];
  /** Whether the file was read from the start (new, shrunk, replaced). */
  restarted: boolean;
  /** The file was gone when its turn came (deleted since the scan listed it): nothing was read. */
  gone?: true;
  /** The tool calls read, for the call cache (only when asked for: `collectCalls`; not redacted yet). */
  calls?: CachedCall[];
};

/** A feedback marker an agent wrote, with the session it belongs to (feedback counts once per session). */
export type MarkerHit = FeedbackMarker & { session: string; file: string; line: number };

export type ScanFileOptions = {
  reader: TranscriptReader;
  /** Absolute path to read. */
  path: string;
  /** The path as shown in events and evidence. */
  shown: string;
  previous: FileState | undefined;
  detector: DetectorOptions;
  /** Events before this time (ISO) are not mined. */
  since?: string;
  /** Shortens and scrubs event text before it is kept in the state file. */
  keep: (event: TranscriptEvent) => TranscriptEvent;
  /** Also return the tool calls read, for the call cache. */
  collectCalls?: boolean;
  /** Only the calls made at or after this time (ISO; see `createCallFloor`), and those without one. */
  callsSince?: string;
};

export function signatureMatches(
  previous: Pick<FileState, 'size' | 'mtimeMs' | 'ino'> | undefined,
  stat: { size: number; mtimeMs: number; ino: number },
): boolean {
  return (
    previous !== undefined &&
    previous.size === stat.size &&
    previous.mtimeMs === stat.mtimeMs &&
    previous.ino === stat.ino
  );
}

/**
 * A file not written to for this long is finished, or paused: a last line without its newline
 * that is a whole JSON record is complete, and read (writers end each record with its newline in
 * the same write, so a whole record without one is a file whose writer stopped, or never adds it).
 */
export const QUIET_MS = 5 * 60_000;

/** A last line a scan held back while its file was being written, now that the file is quiet. */
export function heldLineReady(
  previous: Pick<FileState, 'held'> | undefined,
  mtimeMs: number,
  nowMs: number,
): boolean {
  return previous?.held === true && nowMs - mtimeMs >= QUIET_MS;
}

/** A last line without its newline that is one whole JSON record (see QUIET_MS). */
function isWholeRecord(line: Buffer): boolean {
  try {
    const record: unknown = JSON.parse(decodeLine(startsWithBom(line) ? line.subarray(3) : line));
    return typeof record === 'object' && record !== null && !Array.isArray(record);
  } catch {
    return false;
  }
}

const BOM = '\uFEFF';

/** How many bytes before a file's offset its `tail` hash covers. */
const TAIL_BYTES = 64;

/** The hash of the bytes before `offset` (up to TAIL_BYTES of them), or undefined at offset 0. */
function tailHash(path: string, offset: number): string | undefined {
  if (offset <= 0) return undefined;
  const length = Math.min(TAIL_BYTES, offset);
  const buffer = Buffer.alloc(length);
  const fd = openSync(path, 'r');
  try {
    const read = readSync(fd, buffer, 0, length, offset - length);
    return createHash('sha1').update(buffer.subarray(0, read)).digest('hex').slice(0, 16);
  } finally {
    closeSync(fd);
  }
}

function withoutBom(text: string): string {
  return text.startsWith(BOM) ? text.slice(1) : text;
}

function startsWithBom(line: Buffer): boolean {
  return line[0] === 0xef && line[1] === 0xbb && line[2] === 0xbf;
}

/** A file written to within this long is a session that may still go on. */
const LIVE_MS = 3_600_000;

/** Nothing read: the file is as the last scan left it, or gone. */
function unread(state: FileState, gone: boolean): FileScan {
  return {
    state,
    changed: false,
    bytes: 0,
    lines: 0,
    malformed: [],
    events: 0,
    episodes: [],
    markers: [],
    restarted: false,
    ...(gone ? { gone: true as const } : {}),
  };
}

const GONE_STATE: FileState = {
  size: 0,
  mtimeMs: 0,
  ino: 0,
  offset: 0,
  line: 0,
  malformed: 0,
  carry: {},
  recent: [],
};

/**
 * One file's scan. A file deleted after the scan listed it (an agent's clean-up of old sessions
 * running beside a background scan) comes back `gone`, not as an error that would stop the scan.
 */
export function scanFile(options: ScanFileOptions): FileScan {
  try {
    return scanExistingFile(options);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !existsSync(options.path))
      return unread(GONE_STATE, true);
    throw error;
  }
}

function scanExistingFile(options: ScanFileOptions): FileScan {
  const { reader, path, shown, previous } = options;
  const stat = statSync(path);
  const signature = { size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino };
  const nowMs = Date.now();
  if (previous && signatureMatches(previous, signature) && !heldLineReady(previous, stat.mtimeMs, nowMs))
    return unread(previous, false);
  const compressed = path.endsWith('.zst');
  const document = reader.isDocument(path);
  const restart = document || readsFromStart(path, previous, stat);
  const start = restart ? undefined : previous;
  // A document is parsed whole every time, and the events the last scan read are left out by
  // their keys (`carry.seen`); the detector still resumes from the kept events, so a failure
  // read by the last scan meets the fix written after it.
  const resume = document ? previous : start;
  const context = {
    file: shown,
    sidechain: reader.isSidechain(path),
    project: reader.projectOf(path),
    carry: start?.carry ?? (document ? (previous?.carry ?? {}) : {}),
  };
  const detector = createEpisodeDetector(options.detector);
  /** Every episode found, those of replayed events too (a block may join one of them). */
  const found: Episode[] = [];
  const markers: MarkerHit[] = [];
  const replayedUpTo = start?.line ?? 0;
  /** The lines of a document's events read for the first time (a log's are those past `replayedUpTo`). */
  const newLines = new Set<number>();
  const calls = options.collectCalls ? createCallCollector(undefined, options.callsSince) : undefined;
  /** Where this chunk took the conversation back to (a Gemini `$rewindTo`; see LineParser). */
  let rewoundTo: () => number | undefined = () => undefined;
  let replayed = false;
  // before the first new event, once the reader can say what a rewind took back
  const replay = () => {
    if (!replayed) replayKept(resume, rewoundTo(), { detector, calls, found });
    replayed = true;
  };

  let events = 0;
  const malformed: Problem[] = [];
  let malformedCount = start?.malformed ?? 0;
  const since = options.since;
  const take = (batch: TranscriptEvent[]) => {
    if (batch.length > 0) replay();
    for (const event of batch) {
      if (since !== undefined && event.timestamp !== undefined && event.timestamp < since) continue;
      events += 1;
      if (document) newLines.add(event.line);
      calls?.push(event);
      if (event.kind === 'assistant-text' && event.text.includes(MARKER_PREFIX)) {
        for (const marker of findFeedbackMarkers(event.text))
          markers.push({ ...marker, session: event.session, file: event.file, line: event.line });
      }
      found.push(...detector.push(event));
    }
  };

  let result: { offset: number; line: number; bytes: number; open?: boolean; held?: boolean };
  let carry: ParserCarry;
  if (document && reader.parseDocument) {
    // a byte order mark (an editor's save) is not JSON
    const text = withoutBom(readFileSync(path, 'utf8'));
    const parser = { ...context, carry: {} };
    let parsed: { events: TranscriptEvent[]; carry: ParserCarry } = { events: [], carry: {} };
    try {
      parsed = parseDocumentWithCarry(reader, text, parser, previous?.carry);
    } catch (error) {
      malformedCount += 1;
      malformed.push({
        file: shown,
        line: 1,
        message: `not valid JSON: ${(error as Error).message}`,
        severity: 'warning',
      });
    }
    take(parsed.events);
    carry = parsed.carry;
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    result = { offset: stat.size, line: lines, bytes: stat.size };
  } else {
    const parser = reader.createParser(context);
    rewoundTo = () => parser.rewoundTo?.();
    // A line that is not JSON is counted; what a line cut short still holds is kept.
    const broken = (line: Buffer, lineNumber: number, why: string) => {
      malformedCount += 1;
      const salvaged = parser.salvage?.(line, lineNumber) ?? [];
      take(salvaged);
      if (malformed.length < 20)
        malformed.push({
          file: shown,
          line: lineNumber,
          message: `${salvaged.length > 0 ? 'a line' : 'skipped a line'} ${why}${salvaged.length > 0 ? ': kept the tool call or result it still holds' : ''}`,
          severity: 'warning',
        });
    };
    const sink = (read: Buffer, lineNumber: number) => {
      // a byte order mark before the first line (an editor's save) is not JSON
      const line = lineNumber === 1 && startsWithBom(read) ? read.subarray(3) : read;
      if (line.length === 0) return;
      if (!parser.wants(line)) {
        // Not decoded; a line cut short (no closing brace) is still counted as malformed.
        let end = line.length - 1;
        while (end > 0 && (line[end] === 0x0d || line[end] === 0x20)) end -= 1;
        if (line[end] !== 0x7d) broken(line, lineNumber, 'that is cut short (not valid JSON)');
        return;
      }
      let record: unknown;
      try {
        const slim = parser.slim?.(line) ?? line;
        try {
          record = JSON.parse(decodeLine(slim));
        } catch (error) {
          if (slim === line) throw error;
          record = JSON.parse(decodeLine(line));
        }
      } catch (error) {
        broken(line, lineNumber, `that is not valid JSON (${(error as Error).message.slice(0, 80)})`);
        return;
      }
      take(parser.parse(record, lineNumber));
    };
    const from = start?.offset ?? 0;
    const fromLine = start?.line ?? 0;
    const quiet = nowMs - stat.mtimeMs >= QUIET_MS;
    const how = { open: start?.open === true, ...(quiet ? { takeLast: isWholeRecord } : {}) };
    result = compressed
      ? readZstdLinesFrom(path, from, fromLine, sink, how)
      : readLinesFrom(path, from, fromLine, sink, how);
    take(parser.flush());
    carry = parser.carry();
  }
  replay();
  // asked before the flush, which settles what is pending
  const pending = detector.hasPending();
  found.push(...detector.flush());
  const joined = joinLessonBlocks(found);
  const isNew = (line: number) => (document ? newLines.has(line) : line > replayedUpTo);
  const episodes = joined.filter((episode) => episode.evidence.some((ref) => isNew(ref.line)));
  const lastFind = newestFind(joined, result.line);
  const tail = compressed || document ? undefined : tailHash(path, result.offset);
  return {
    state: {
      ...signature,
      offset: result.offset,
      ...(tail !== undefined ? { tail } : {}),
      line: result.line,
      ...(result.open === true ? { open: true as const } : {}),
      // held back only while the file is being written: once quiet, a line not read is no record
      ...(result.held === true && nowMs - stat.mtimeMs < QUIET_MS ? { held: true as const } : {}),
      malformed: malformedCount,
      carry,
      recent: keptEvents(detector, pending, nowMs - stat.mtimeMs < LIVE_MS).map(options.keep),
      ...(lastFind !== undefined ? { lastFind: keptFind(lastFind, options.keep) } : {}),
    },
    changed: true,
    bytes: result.bytes,
    lines: result.line - (start?.line ?? 0),
    malformed,
    events,
    episodes,
    markers,
    restarted: restart,
    ...(calls ? { calls: calls.finish() } : {}),
  };
}

/** Whether a log file is read from its start: new, replaced, shrunk, or rewritten in place. */
function readsFromStart(
  path: string,
  previous: FileState | undefined,
  stat: { size: number; ino: number },
): boolean {
  if (previous === undefined || previous.ino !== stat.ino) return true;
  if (path.endsWith('.zst')) return stat.size < previous.size;
  // rewritten in place, since: what lies before the offset is no longer what was read
  return (
    stat.size < previous.offset ||
    (previous.tail !== undefined && tailHash(path, previous.offset) !== previous.tail)
  );
}

/**
 * The last scan's find and kept events, replayed into this scan's detector; those from the line a
 * rewind took the conversation back to (`cut`) are left out, as one scan of the whole file never
 * reads them.
 */
function replayKept(
  resume: FileState | undefined,
  cut: number | undefined,
  into: { detector: EpisodeDetector; calls: CallCollector | undefined; found: Episode[] },
): void {
  const kept = (line: number) => cut === undefined || line < cut;
  // The find of the last scan comes first: replaying the kept events may find it again, and the
  // join takes the nearest, so either serves.
  const lastFind = resume?.lastFind;
  if (lastFind !== undefined && lastFind.evidence.every((ref) => kept(ref.line))) into.found.push(lastFind);
  // The kept events go to the call cache again: a call whose result comes in this scan gets it.
  for (const event of resume?.recent ?? []) {
    if (!kept(event.line)) continue;
    into.calls?.push(event);
    into.found.push(...into.detector.push(event));
  }
}

type CallCollector = ReturnType<typeof createCallCollector>;

/**
 * The events the next scan replays: enough to finish an open episode. The detector's whole window
 * while a failure waits for its fix in a file written to within the last hour (it may be that far
 * back), else the last 12 events while one waits; the last 12 events while they hold
 * a failure just fixed (a #lesson block written next joins its find) or calls whose results come
 * later (parallel calls are written before their results); else only the last call and text (a
 * later user correction refers to them): each scan of a changed file reads the kept events again
 * (on the failure-dense test fixtures, 12 events for every file made the detail state 2.3 times
 * the size of 3).
 */
function keptEvents(detector: EpisodeDetector, pending: boolean, live: boolean): TranscriptEvent[] {
  // a failure still waiting for its fix may lie anywhere in the detector's window: all of it, for
  // a session still being written (a finished one's failures are settled; keeping 40 events of
  // every file made a first scan of a long history a third slower)
  if (pending && live) return detector.recent();
  const recent = detector.recent().slice(-12);
  const failed = recent.some((event) => event.kind === 'tool-result' && !event.ok);
  // calls whose results the next scan reads (parallel calls are written before their results)
  const answered = new Set(recent.map((event) => (event.kind === 'tool-result' ? event.callId : undefined)));
  const waiting = recent.some((event) => event.kind === 'tool-call' && !answered.has(event.callId));
  return pending || failed || waiting ? recent : recent.slice(-3);
}

/** The newest find with a failure that no block took yet, while a block may still join it. */
function newestFind(episodes: readonly Episode[], endLine: number): Episode | undefined {
  let newest: Episode | undefined;
  let newestLine = -1;
  for (const episode of episodes) {
    if (episode.kind === 'lesson-block' || episode.failures.length === 0) continue;
    const last = Math.max(...episode.evidence.map((ref) => ref.line));
    if (last > newestLine) [newest, newestLine] = [episode, last];
  }
  return newest !== undefined && endLine - newestLine <= BLOCK_GAP_LINES ? newest : undefined;
}

/** A find as the state file keeps it: its events shortened and scrubbed like the kept events. */
function keptFind(episode: Episode, keep: (event: TranscriptEvent) => TranscriptEvent): Episode {
  const kept = <T extends TranscriptEvent>(event: T): T => keep(event) as T;
  return {
    ...episode,
    failures: episode.failures.map((attempt) => ({ call: kept(attempt.call), result: kept(attempt.result) })),
    fix: episode.fix && kept(episode.fix),
    enabler: episode.enabler && kept(episode.enabler),
  };
}

function parseDocumentWithCarry(
  reader: TranscriptReader,
  text: string,
  context: { file: string; sidechain: boolean; project: string | undefined },
  carried: ParserCarry | undefined,
): { events: TranscriptEvent[]; carry: ParserCarry } {
  const seen = new Set(carried?.seen ?? []);
  const all = reader.parseDocument?.(text, { ...context, carry: {} }) ?? [];
  const key = (event: TranscriptEvent) =>
    `${event.kind}:${event.line}:${'callId' in event ? event.callId : ''}`;
  const events = all.filter((event) => !seen.has(key(event)));
  for (const event of all) seen.add(key(event));
  const first = all[0];
  return {
    events,
    carry: {
      ...(first ? { session: first.session } : {}),
      ...(first?.project !== undefined ? { project: first.project } : {}),
      seen: [...seen].slice(-8192),
    },
  };
}
