/**
 * Gemini CLI chat recordings to events. The `.jsonl` form is an upsert log: a metadata first line
 * (`sessionId`, `projectHash`), then message records keyed by `id` where a repeated id replaces the
 * earlier record (the last line wins), `{"$set": {...}}` patches (`messages` replaces the list),
 * and `{"$rewindTo": id}`, which drops that message and everything after it. Records are held
 * until the chunk ends and then emitted once each (ids already emitted are remembered across
 * scans). A rewind to a message an earlier scan read (the user rewound after a scan) drops the
 * messages of this chunk and says where it went back to (`rewoundTo`), so the scan drops the
 * events it kept from there on: a later fix never pairs with a failure taken back, as in one scan
 * of the whole file. What the earlier scan already made candidates of stays. The older `.json` form is one document with a `messages` array. Tool calls carry their
 * result and a `status` (success, error, cancelled); shell failures often say success with
 * "Exit Code: 1" in the output. `<hook_context>` blocks are hook injections and never mined.
 */
import { classifyResult } from '../../core/capture/classify-result.js';
import { eventAt } from '../../core/capture/events.js';
import type { EventOrigin, TranscriptEvent } from '../../core/capture/events.js';
import { contentText, isObject, resultEvent, str, stripInjected } from '../reader.js';
import type { LineParser, ParserContext } from '../reader.js';

const TERMINAL = new Set(['success', 'error', 'cancelled']);

function resultText(call: Record<string, unknown>): string {
  const parts: string[] = [];
  const result = Array.isArray(call.result) ? call.result : [];
  for (const item of result) {
    const response =
      isObject(item) && isObject(item.functionResponse) ? item.functionResponse.response : undefined;
    if (!isObject(response)) continue;
    if (typeof response.output === 'string') parts.push(response.output);
    if (typeof response.error === 'string') parts.push(response.error);
  }
  if (parts.length === 0 && typeof call.resultDisplay === 'string') parts.push(call.resultDisplay);
  return stripInjected(parts.join('\n').replace(/<\/?untrusted_context>/g, ''));
}

type Emitter = {
  /** Events of one message record not emitted yet; `lineOf` finds a tool call's own line. */
  emit(
    record: Record<string, unknown>,
    line: number,
    lineOf?: (id: string) => number | undefined,
  ): TranscriptEvent[];
  seen: Set<string>;
  meta(record: Record<string, unknown>): void;
  session(): string | undefined;
  project(): string | undefined;
};

function createEmitter(context: ParserContext): Emitter {
  const seen = new Set(context.carry.seen ?? []);
  let session = context.carry.session;
  let project = context.project ?? context.carry.project;
  const origin = (timestamp: unknown, line: number): EventOrigin => ({
    agent: 'gemini',
    session: session ?? 'unknown',
    project,
    timestamp: str(timestamp),
    file: context.file,
    line,
    ...(context.sidechain ? { sidechain: true } : {}),
  });
  return {
    seen,
    session: () => session,
    project: () => project,
    meta(record) {
      session = str(record.sessionId) ?? session;
      if (project === undefined) project = str(record.projectHash);
    },
    emit(record, line, lineOf) {
      const id = str(record.id) ?? `line${line}`;
      const events: TranscriptEvent[] = [];
      if (record.type === 'user') {
        const parts = Array.isArray(record.content) ? record.content : [];
        const onlyResponses =
          parts.length > 0 && parts.every((p) => isObject(p) && p.functionResponse !== undefined);
        const text = stripInjected(contentText(record.content));
        if (!onlyResponses && text !== '' && !seen.has(`u:${id}`)) {
          seen.add(`u:${id}`);
          events.push(eventAt(origin(record.timestamp, line), { kind: 'user-text', text }));
        }
        return events;
      }
      if (record.type !== 'gemini') return events;
      const text = contentText(record.content);
      if (/\S/.test(text) && !seen.has(`t:${id}:${text.length}`)) {
        seen.add(`t:${id}:${text.length}`);
        events.push(eventAt(origin(record.timestamp, line), { kind: 'assistant-text', text }));
      }
      const toolCalls = Array.isArray(record.toolCalls) ? record.toolCalls : [];
      for (const call of toolCalls) {
        if (!isObject(call)) continue;
        const callId = str(call.id) ?? `${id}:${events.length}`;
        const status = str(call.status) ?? 'success';
        if (!TERMINAL.has(status) || seen.has(`c:${callId}`)) continue;
        seen.add(`c:${callId}`);
        const tool = str(call.name) ?? 'unknown';
        const callLine = lineOf?.(callId) ?? line;
        const at = origin(call.timestamp ?? record.timestamp, callLine);
        events.push(
          eventAt(at, { kind: 'tool-call', callId, tool, input: isObject(call.args) ? call.args : {} }),
        );
        const textOut = resultText(call);
        const verdict = classifyResult({
          tool,
          text: textOut,
          errorFlag: status === 'error',
          cancelled: status === 'cancelled',
        });
        events.push(resultEvent(at, callId, tool, textOut, verdict));
      }
      return events;
    },
  };
}

/**
 * Message ids whose first line the carry keeps for a later `$rewindTo`: more than the messages the
 * kept events (the detector's window, 40 events at most) come from. A rewind to an id older than
 * these goes back before everything kept.
 */
const REMEMBERED_MESSAGES = 64;

export function createGeminiParser(context: ParserContext): LineParser {
  const emitter = createEmitter(context);
  /** Held records by id, in first-seen order; the last line for an id wins. */
  let pending = new Map<string, { record: Record<string, unknown>; line: number }>();
  /** The line each message id was first read at, in that order (the carried ones: earlier scans). */
  const firstLines = new Map(Object.entries(context.carry.messages ?? {}));
  const carried = new Set(firstLines.keys());
  /** The carry may have forgotten older messages. */
  const forgetful = firstLines.size >= REMEMBERED_MESSAGES;
  let rewound: number | undefined;

  const hold = (record: Record<string, unknown>, id: string, line: number) => {
    pending.set(id, { record, line });
    if (!firstLines.has(id)) firstLines.set(id, line);
  };

  const replace = (messages: unknown[], line: number) => {
    pending = new Map();
    for (const message of messages) {
      if (isObject(message) && typeof message.id === 'string') hold(message, message.id, line);
    }
  };

  /** `$rewindTo`: the message first read at or after the target's first line are taken back. */
  const rewind = (target: string) => {
    const known = firstLines.get(target);
    // an id never seen: before the messages remembered, or not this conversation's (ignored)
    if (known === undefined && !forgetful) return;
    const at = known ?? 0;
    for (const id of pending.keys()) if ((firstLines.get(id) ?? 0) >= at) pending.delete(id);
    for (const [id, line] of firstLines) if (line >= at) firstLines.delete(id);
    if (known === undefined || carried.has(target)) rewound = Math.min(rewound ?? at, at);
  };

  return {
    wants: () => true,
    parse(value, line) {
      if (!isObject(value)) return [];
      if (typeof value.$rewindTo === 'string') {
        rewind(value.$rewindTo);
        return [];
      }
      if (isObject(value.$set)) {
        if (Array.isArray(value.$set.messages)) replace(value.$set.messages, line);
        emitter.meta(value.$set);
        return [];
      }
      if (typeof value.id === 'string' && typeof value.type === 'string') {
        pending.delete(value.id);
        hold(value, value.id, line);
        return [];
      }
      emitter.meta(value);
      if (Array.isArray(value.messages)) replace(value.messages, line);
      return [];
    },
    flush() {
      const events: TranscriptEvent[] = [];
      for (const { record, line } of pending.values()) events.push(...emitter.emit(record, line));
      pending = new Map();
      return events;
    },
    carry() {
      const session = emitter.session();
      const project = emitter.project();
      return {
        ...(session !== undefined ? { session } : {}),
        ...(project !== undefined ? { project } : {}),
        seen: [...emitter.seen].slice(-4096),
        messages: Object.fromEntries([...firstLines].slice(-REMEMBERED_MESSAGES)),
      };
    },
    rewoundTo: () => rewound,
  };
}

/** The older single-document form: every message at the line its `"id"` sits on. */
export function parseGeminiDocument(text: string, context: ParserContext): TranscriptEvent[] {
  const emitter = createEmitter(context);
  const document = JSON.parse(text) as unknown;
  if (!isObject(document)) return [];
  emitter.meta(document);
  const lineStarts: number[] = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const lineAt = (offset: number): number => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((lineStarts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  // Where each `"id": "..."` first appears, in one pass: a search of the whole text per message
  // and per tool call made a 16,000-message session take 98 s, on every rescan.
  const firstAt = new Map<string, number>();
  for (const match of text.matchAll(/"id"\s*:\s*("(?:[^"\\]|\\.)*")/g)) {
    const quoted = match[1] as string;
    if (!firstAt.has(quoted)) firstAt.set(quoted, match.index);
  }
  const lineOf = (id: string): number | undefined => {
    const at = firstAt.get(JSON.stringify(id));
    return at === undefined ? undefined : lineAt(at);
  };
  const events: TranscriptEvent[] = [];
  const messages = Array.isArray(document.messages) ? document.messages : [];
  for (const message of messages) {
    if (!isObject(message)) continue;
    const line = typeof message.id === 'string' ? (lineOf(message.id) ?? 1) : 1;
    events.push(...emitter.emit(message, line, lineOf));
  }
  return events;
}
