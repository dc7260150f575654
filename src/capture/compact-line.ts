/**
 * Decodes one JSON line for parsing without decoding what detection never reads: on a long line,
 * every string value longer than `LONG_STRING` bytes (a 50 KB tool output, a file written whole)
 * is cut to its first `KEEP_HEAD` and last `KEEP_TAIL` bytes before UTF-8 decoding and
 * JSON.parse. Result classification reads the first 4,000 and the last 2,000 characters of a
 * result, so what it sees does not change. The strings are found on the raw bytes with
 * `Buffer.indexOf` (quote to quote, escapes counted), which runs at several GB/s, while decoding
 * and parsing the whole line run at 100 to 1,000 MB/s. Cuts never split an escape sequence or a
 * UTF-8 character. A line holding a `#lesson` block is decoded whole: the block may sit anywhere
 * in a long message.
 */

/** Lines up to this many bytes are decoded whole. */
export const LONG_LINE = 16 * 1024;
/** Strings longer than this (in raw bytes) are cut. */
export const LONG_STRING = 12 * 1024;
export const KEEP_HEAD = 6 * 1024;
export const KEEP_TAIL = 3 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LESSON = Buffer.from('#lesson');

/**
 * Inserted where bytes were cut: plain characters, valid inside a JSON string and inside a JSON
 * document nested in one (Codex outputs are JSON text in a JSON string).
 */
function marker(bytes: number): string {
  return ` [... ${bytes} bytes not read ...] `;
}

/** Is `at` a safe cut point: not inside an escape sequence nor a UTF-8 character? */
function safeCut(line: Buffer, at: number, floor: number): boolean {
  if (((line[at] ?? 0) & 0xc0) === 0x80) return false;
  // An escape is at most 6 bytes (\uXXXX): none may start in the 5 bytes before `at`.
  for (let i = Math.max(floor, at - 6); i < at; i += 1) if (line[i] === BACKSLASH) return false;
  return true;
}

/** The nearest safe cut at or before `at` (not below `floor`), or -1. */
function cutBefore(line: Buffer, at: number, floor: number): number {
  for (let p = at; p > floor + 6 && p > at - 256; p -= 1) if (safeCut(line, p, floor)) return p;
  return -1;
}

/** The nearest safe cut at or after `at` (not above `ceiling`), or -1. */
function cutAfter(line: Buffer, at: number, ceiling: number): number {
  for (let p = at; p < ceiling && p < at + 256; p += 1) if (safeCut(line, p, at - 6)) return p;
  return -1;
}

/**
 * The line as text to JSON.parse, long strings cut. A line that is not well-formed is returned
 * whole, so JSON.parse reports it as it would have.
 */
/** The quote that closes the JSON string opening at `open` (quote to quote, escapes counted), or -1. */
export function closingQuote(line: Buffer, open: number): number {
  for (let close = line.indexOf(QUOTE, open + 1); close >= 0; close = line.indexOf(QUOTE, close + 1)) {
    let back = close - 1;
    while (line[back] === BACKSLASH) back -= 1;
    if ((close - 1 - back) % 2 === 0) return close;
  }
  return -1;
}

export function decodeLine(line: Buffer): string {
  if (line.length <= LONG_LINE || line.includes(LESSON)) return line.toString('utf8');
  const parts: string[] = [];
  let copied = 0;
  let pos = 0;
  for (;;) {
    const open = line.indexOf(QUOTE, pos);
    if (open < 0) break;
    const close = closingQuote(line, open);
    if (close < 0) return line.toString('utf8');
    if (close - open - 1 > LONG_STRING) {
      const head = cutBefore(line, open + 1 + KEEP_HEAD, open + 1);
      const tail = cutAfter(line, close - KEEP_TAIL, close);
      if (head > 0 && tail > head) {
        parts.push(line.toString('utf8', copied, head), marker(tail - head));
        copied = tail;
      }
    }
    pos = close + 1;
  }
  if (copied === 0) return line.toString('utf8');
  parts.push(line.toString('utf8', copied));
  return parts.join('');
}
