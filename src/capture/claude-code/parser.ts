/**
 * Claude Code transcript lines to events. One JSON record a line: `user` (text, or tool results),
 * `assistant` (one content block a line in newer versions; lines of one API reply share
 * `message.id`), `system` with subtype `compact_boundary`. Everything else (attachments, including
 * `hook_additional_context`, which is lore's own injected text, API request blobs, snapshots) is
 * skipped without being decoded.
 */
import { classifyResult } from '../../core/capture/classify-result.js';
import { eventAt } from '../../core/capture/events.js';
import type { EventOrigin, TranscriptEvent } from '../../core/capture/events.js';
import { contentText, isObject, resultEvent, str, stripInjected, trimCalls } from '../reader.js';
import { salvageRecord } from './salvage.js';
import { withoutToolUseResult } from './slim-line.js';
import type { LineParser, ParserContext } from '../reader.js';

/** The top-level `"type"` key; its value decides whether the line is decoded at all. */
const TYPE_KEY = Buffer.from('"type":');
const USER_TYPE = Buffer.from('"user"');
const ASSISTANT_TYPE = Buffer.from('"assistant"');
const SYSTEM_TYPE = Buffer.from('"system"');
const COMPACT = Buffer.from('"compact_boundary"');
const THINKING = [Buffer.from('"thinking"'), Buffer.from('"redacted_thinking"')];
const SPOKEN = [Buffer.from('"text"'), Buffer.from('"tool_use"')];

/** Byte by byte: for a token of a few bytes, a loop costs a fraction of `Buffer#compare`'s call into C++. */
function startsAt(window: Buffer, at: number, bytes: Buffer): boolean {
  if (at + bytes.length > window.length) return false;
  for (let i = 0; i < bytes.length; i += 1) if (window[at + i] !== bytes[i]) return false;
  return true;
}

/**
 * An assistant line with thinking and nothing else (newer versions write each block of a reply
 * on its own line): nothing to mine, and thinking blocks carry kilobytes of text and signature.
 * Inside a JSON string every quote is escaped, so a `"type":` key only matches a real one. One
 * pass over the line's `"type":` keys: a `thinking` or `redacted_thinking` block right after the
 * colon, and no `text` or `tool_use` block (after the colon or one space).
 */
export function thinkingOnly(line: Buffer): boolean {
  let thinking = false;
  for (let at = line.indexOf(TYPE_KEY); at >= 0; at = line.indexOf(TYPE_KEY, at + TYPE_KEY.length)) {
    const value = at + TYPE_KEY.length;
    if (
      SPOKEN.some(
        (type) => startsAt(line, value, type) || (line[value] === 0x20 && startsAt(line, value + 1, type)),
      )
    )
      return false;
    thinking ||= THINKING.some((type) => startsAt(line, value, type));
  }
  return thinking;
}

/**
 * Does this window hold `"type": "user"`, `"assistant"` (more than thinking) or a compaction?
 * One search per key.
 */
function hasWantedType(window: Buffer, line: Buffer): boolean {
  for (let at = window.indexOf(TYPE_KEY); at >= 0; at = window.indexOf(TYPE_KEY, at + TYPE_KEY.length)) {
    let value = at + TYPE_KEY.length;
    while (window[value] === 0x20) value += 1;
    if (window[value] !== 0x22) continue;
    if (startsAt(window, value, USER_TYPE)) return true;
    if (startsAt(window, value, ASSISTANT_TYPE)) return !thinkingOnly(line);
    if (startsAt(window, value, SYSTEM_TYPE)) return line.includes(COMPACT);
  }
  return false;
}

const HEAD = 1024;
const TAIL = 4096;

/** Lines a person did not type: caveats, slash-command echoes, compaction summaries. */
function isSyntheticUser(record: Record<string, unknown>, text: string): boolean {
  return (
    record.isMeta === true ||
    record.isCompactSummary === true ||
    record.isVisibleInTranscriptOnly === true ||
    /^(This session is being continued from a previous conversation|Caveat: The messages below were generated)/.test(
      text,
    )
  );
}

/**
 * How many block keys the parser remembers to emit each block once, in a scan and carried to the
 * next one alike: a carry shorter than the scan's own window (it was 64 against 256) let an
 * incremental scan emit again a block 65 to 256 keys back that one full scan of the same file
 * drops, so a candidate's count depended on when the scans ran. 256 keeps what a full scan has
 * always done; its cost is the carry, kept for every file read until the scan state is written
 * (see `seenHash`).
 */
export const SEEN_KEYS = 256;

/**
 * A block key as the parser remembers it: 52 bits of two 32-bit hashes of the key, a number while
 * it scans, and in base 36 in its carry (at most 11 characters, never a colon). The keys themselves (`c:toolu_…`, `t:msg_…:0:512`) are
 * 30-45 characters: on the capture benchmark's corpus the carries of a first scan held 86,000
 * of them, 6.7 MB of the scanning thread's heap until the state was written and 3.2 MB of
 * `scan-state-detail.json` (about 1 MB as hashes). Two keys of one file share a hash about once
 * in 2^52 / 256 blocks read (a block then taken for a repeat): never, in practice.
 */
export function seenHash(key: string): number {
  let a = 0x811c9dc5;
  let b = 0x9e3779b9;
  for (let i = 0; i < key.length; i += 1) {
    const code = key.charCodeAt(i);
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x5bd1e995);
  }
  a = Math.imul(a ^ (a >>> 15), 0x2c1b3c6d);
  a ^= a >>> 12;
  b = Math.imul(b ^ (b >>> 13), 0x297a2d39);
  b ^= b >>> 15;
  return (a >>> 0) * 0x100000 + ((b >>> 0) & 0xfffff);
}

export function createClaudeParser(context: ParserContext): LineParser {
  const calls = new Map(Object.entries(context.carry.calls ?? {}));
  // a carry written before the keys were hashed holds the keys themselves (each with a colon)
  const seen = new Set(
    (context.carry.seen ?? [])
      .slice(-SEEN_KEYS)
      .map((key) => (key.includes(':') ? seenHash(key) : parseInt(key, 36))),
  );
  let session = context.carry.session;
  let project = context.carry.project ?? context.project;

  const origin = (record: Record<string, unknown>, line: number): EventOrigin => ({
    agent: 'claude-code',
    session: session ?? 'unknown',
    project,
    timestamp: str(record.timestamp),
    file: context.file,
    line,
    ...(context.sidechain || record.isSidechain === true ? { sidechain: true } : {}),
  });

  /** Split replies repeat nothing, but resumed sessions copy whole lines: emit each block once. */
  const once = (raw: string): boolean => {
    const key = seenHash(raw);
    if (seen.has(key)) return false;
    seen.add(key);
    if (seen.size > SEEN_KEYS) seen.delete(seen.values().next().value as number);
    return true;
  };

  const parseAssistant = (record: Record<string, unknown>, line: number): TranscriptEvent[] => {
    const message = isObject(record.message) ? record.message : {};
    const content = message.content;
    const events: TranscriptEvent[] = [];
    const blocks = typeof content === 'string' ? [{ type: 'text', text: content }] : content;
    if (!Array.isArray(blocks)) return events;
    const messageId = str(message.id) ?? str(record.uuid) ?? String(line);
    blocks.forEach((block: unknown, index) => {
      if (!isObject(block)) return;
      if (block.type === 'text' && typeof block.text === 'string' && /\S/.test(block.text)) {
        if (once(`t:${messageId}:${index}:${block.text.length}`))
          events.push(eventAt(origin(record, line), { kind: 'assistant-text', text: block.text }));
      } else if (block.type === 'tool_use' && typeof block.name === 'string') {
        const callId = str(block.id) ?? `${messageId}:${index}`;
        calls.set(callId, block.name);
        if (calls.size > 256) calls.delete(calls.keys().next().value as string);
        if (once(`c:${callId}`))
          events.push(
            eventAt(origin(record, line), {
              kind: 'tool-call',
              callId,
              tool: block.name,
              input: isObject(block.input) ? block.input : {},
            }),
          );
      }
    });
    return events;
  };

  const parseUser = (record: Record<string, unknown>, line: number): TranscriptEvent[] => {
    const message = isObject(record.message) ? record.message : {};
    const content = message.content;
    const events: TranscriptEvent[] = [];
    const toolUseResult = record.toolUseResult;
    let at: EventOrigin | undefined;
    if (Array.isArray(content) && content.some((b) => isObject(b) && b.type === 'tool_result')) {
      for (const block of content) {
        if (!isObject(block) || block.type !== 'tool_result') continue;
        const callId = str(block.tool_use_id) ?? `line${line}`;
        if (!once(`r:${callId}`)) continue;
        const tool = calls.get(callId);
        calls.delete(callId);
        const text = contentText(block.content);
        const verdict = classifyResult({
          tool,
          text,
          errorFlag: block.is_error === true,
          errorPrefix: typeof toolUseResult === 'string' && toolUseResult.startsWith('Error'),
          interrupted: isObject(toolUseResult) && toolUseResult.interrupted === true,
        });
        at ??= origin(record, line);
        events.push(resultEvent(at, callId, tool, text, verdict));
      }
      return events;
    }
    const raw = contentText(content);
    if (/^\[Request interrupted by user/.test(raw.trim()))
      return [eventAt(origin(record, line), { kind: 'interruption', callId: undefined })];
    const text = stripInjected(raw);
    if (text === '' || isSyntheticUser(record, text)) return events;
    if (once(`u:${str(record.uuid) ?? line}`))
      events.push(eventAt(origin(record, line), { kind: 'user-text', text }));
    return events;
  };

  const parse = (value: unknown, line: number): TranscriptEvent[] => {
    if (!isObject(value)) return [];
    session = str(value.sessionId) ?? session;
    project = str(value.cwd) ?? project;
    switch (value.type) {
      case 'assistant':
        return parseAssistant(value, line);
      case 'user':
        return parseUser(value, line);
      case 'system':
        return value.subtype === 'compact_boundary'
          ? [eventAt(origin(value, line), { kind: 'compaction' })]
          : [];
      default:
        return [];
    }
  };

  return {
    wants(line) {
      // The top-level type sits near the start (user lines) or after the message, near the end
      // (assistant lines): look there only, never through a 50 KB tool output or attachment.
      if (line.length <= HEAD + TAIL) return hasWantedType(line, line);
      if (hasWantedType(line.subarray(0, HEAD), line)) return true;
      return hasWantedType(line.subarray(line.length - TAIL), line);
    },
    slim: withoutToolUseResult,
    parse,
    salvage(line, lineNumber) {
      const record = salvageRecord(line.toString('utf8'));
      if (record === undefined) return [];
      const message = record.message as { content: Record<string, unknown>[] };
      const block = message.content[0];
      if (record.type === 'user' && block !== undefined && block.tool_use_id === undefined) {
        // its call's id was cut off: the newest call still waiting for its result
        const waiting = [...calls.keys()].at(-1);
        if (waiting === undefined) return [];
        block.tool_use_id = waiting;
      }
      // a call read from a cut line has only the parameters before the cut
      return parse(record, lineNumber).map((event) =>
        event.kind === 'tool-call' ? { ...event, inputCut: true as const } : event,
      );
    },
    flush: () => [],
    carry: () => ({
      ...(session !== undefined ? { session } : {}),
      ...(project !== undefined ? { project } : {}),
      calls: trimCalls(calls),
      seen: [...seen].map((key) => key.toString(36)),
    }),
  };
}
