/**
 * What a Claude Code line cut short still says. Public transcripts come through redaction passes
 * that cut a line at a word they take for a header (`To: [REDACTED_RECIPIENT]`), so the record is
 * no longer JSON; the part before the cut is intact and in the order Claude Code writes it: the
 * session and folder first, then the message, whose tool call names its id, tool and the input's
 * first string fields (a Write's `file_path` before its `content`), or whose tool result starts
 * with its text. This rebuilds the record that part describes: an assistant line with its one tool
 * call, or a user line with its one tool result, its text as far as it goes (`is_error` and the
 * call's id when they survived; else the result belongs to the newest call still waiting for one).
 * Anything else (thinking, plain text, attachments) is left as broken.
 */

/** Where the JSON string starting at `from` (just after its opening quote) ends: its closing quote, or the text's end. */
function stringEnd(text: string, from: number): number {
  let i = from;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x5c) i += 2;
    else if (c === 0x22) return i;
    else i += 1;
  }
  return text.length;
}

/** JSON string contents decoded; a cut inside an escape (`\\`, `\\u00`) drops that escape. */
function decode(raw: string): string {
  for (let cut = 0; cut <= 5 && cut <= raw.length; cut += 1) {
    try {
      return JSON.parse(`"${raw.slice(0, raw.length - cut)}"`) as string;
    } catch {
      // an escape cut short: try without its last characters
    }
  }
  return raw;
}

/** The leading part of a JSON string starting at `from` (just after its opening quote), decoded. */
export function partialString(text: string, from: number): { value: string; closed: boolean } {
  const end = stringEnd(text, from);
  return { value: decode(text.slice(from, end)), closed: end < text.length };
}

/** The value of the first `"key":"..."` in `text` (closed strings only), if any. */
function field(text: string, key: string): string | undefined {
  const at = text.indexOf(`"${key}":"`);
  if (at < 0) return undefined;
  const found = partialString(text, at + key.length + 4);
  return found.closed ? found.value : undefined;
}

/**
 * The input's leading `"key":"value"` pairs, until the first value that is not a whole string; a
 * cut `command` is kept as far as it goes (the rest of a cut value is not).
 */
function leadingStrings(text: string, from: number): Record<string, string> {
  const out: Record<string, string> = {};
  const pair = /"([A-Za-z_][\w-]*)":"/y;
  let at = from;
  for (;;) {
    pair.lastIndex = at;
    const m = pair.exec(text);
    if (m === null) break;
    const end = stringEnd(text, pair.lastIndex);
    // a shell command cut short still names its program and subcommand: kept as far as it goes
    if (end >= text.length && m[1] === 'command') out.command = decode(text.slice(pair.lastIndex, end));
    if (end >= text.length) break;
    out[m[1] as string] = decode(text.slice(pair.lastIndex, end));
    at = end + 1;
    if (text[at] !== ',') break;
    at += 1;
  }
  return out;
}

const TOOL_USE = /"type":"tool_use","id":"([^"\\]+)","name":"([^"\\]+)","input":\{/;
const TOOL_RESULT =
  /"type":"tool_result",(?:"tool_use_id":"([^"\\]+)",)?"content":(\[\{"type":"text","text":"|")/;

/** The record a cut line describes, or undefined when it describes no tool call or result. */
export function salvageRecord(text: string): Record<string, unknown> | undefined {
  // the session's fields, each where it survived the cut
  const base = Object.fromEntries(
    (['sessionId', 'cwd', 'timestamp'] as const).flatMap((key) => {
      const value = field(text, key);
      return value === undefined ? [] : [[key, value]];
    }),
  ) as Record<string, unknown>;
  if (text.includes('"isSidechain":true')) base.isSidechain = true;
  const use = TOOL_USE.exec(text);
  if (use !== null && text.includes('"role":"assistant"')) {
    const messageId = field(text, 'id');
    const input = leadingStrings(text, use.index + use[0].length);
    return {
      ...base,
      type: 'assistant',
      message: {
        ...(messageId === undefined ? {} : { id: messageId }),
        role: 'assistant',
        content: [{ type: 'tool_use', id: use[1], name: use[2], input }],
      },
    };
  }
  const result = TOOL_RESULT.exec(text);
  if (result !== null && text.includes('"role":"user"')) {
    const content = partialString(text, result.index + result[0].length).value;
    const rest = text.slice(result.index);
    const callId = result[1] ?? field(rest, 'tool_use_id');
    return {
      ...base,
      type: 'user',
      message: {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            ...(callId === undefined ? {} : { tool_use_id: callId }),
            content,
            ...(/"is_error":true/.test(rest) ? { is_error: true } : {}),
          },
        ],
      },
    };
  }
  return undefined;
}
