/**
 * Claude Code writes a tool's result twice on its line: as the message's `tool_result` content,
 * which detection reads, and again as the top-level `toolUseResult` (stdout and stderr, a file
 * read whole, a patch), of which the parser reads two facts only: whether it is a string starting
 * with "Error", and whether it says `interrupted: true`. That copy is about half the bytes of a
 * result line, so it is cut out on the raw bytes before decoding: the value is skipped quote to
 * quote with `Buffer.indexOf` (escapes counted) and replaced by a stand-in that keeps both facts.
 * Anything unexpected leaves the line as it was; a line that then fails JSON.parse is parsed whole.
 */
import { closingQuote } from '../compact-line.js';

const KEY = Buffer.from('"toolUseResult":');
const INTERRUPTED = Buffer.from('"interrupted":true');
const ERROR = Buffer.from('Error');
const QUOTE = 0x22;
/** Values shorter than this are left in: cutting them saves nothing. */
const WORTH_CUTTING = 256;

/** The index after the string that opens at `at` (a quote), or -1. */
function endOfString(line: Buffer, at: number): number {
  const close = closingQuote(line, at);
  return close < 0 ? -1 : close + 1;
}

/** The index after the JSON value that starts at `at`, or -1 when it does not end on the line. */
export function endOfValue(line: Buffer, at: number): number {
  const first = line[at];
  if (first === QUOTE) return endOfString(line, at);
  if (first !== 0x7b && first !== 0x5b) {
    // a number, true, false or null: up to the next delimiter
    let end = at;
    while (end < line.length && line[end] !== 0x2c && line[end] !== 0x7d && line[end] !== 0x5d) end += 1;
    return end < line.length ? end : -1;
  }
  let depth = 0;
  for (let i = at; i < line.length;) {
    const byte = line[i];
    if (byte === QUOTE) {
      i = endOfString(line, i);
      if (i === -1) return -1;
      continue;
    }
    if (byte === 0x7b || byte === 0x5b) depth += 1;
    else if (byte === 0x7d || byte === 0x5d) {
      depth -= 1;
      if (depth === 0) return i + 1;
    }
    i += 1;
  }
  return -1;
}

/** The line with its `toolUseResult` value replaced by a stand-in; the line itself when there is none. */
export function withoutToolUseResult(line: Buffer): Buffer {
  // The top-level key comes last or next to last: search from the end.
  const key = line.lastIndexOf(KEY);
  if (key === -1) return line;
  let start = key + KEY.length;
  while (line[start] === 0x20) start += 1;
  const end = endOfValue(line, start);
  if (end === -1 || end - start < WORTH_CUTTING) return line;
  let standIn: string;
  if (line[start] === QUOTE)
    standIn =
      line.compare(ERROR, 0, ERROR.length, start + 1, start + 1 + ERROR.length) === 0 ? '"Error"' : '""';
  else if (line[start] === 0x7b) {
    const flag = line.indexOf(INTERRUPTED, start);
    standIn = flag !== -1 && flag < end ? '{"interrupted":true}' : '{}';
  } else standIn = 'null';
  return Buffer.concat([line.subarray(0, start), Buffer.from(standIn), line.subarray(end)]);
}
