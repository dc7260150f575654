/**
 * Where a YAML syntax error starts, for the problems lore reports. The parser notices a quote or a
 * flow collection (`[`, `{`) that is never closed only where the text stops making sense: often the
 * end of the file, lines after the key a person got wrong. So when an error follows such an
 * opener, the problem names the opener's line, and says where the parser gave up.
 */
import { Parser } from 'yaml';
import type { LineCounter } from 'yaml';

type Token = { type?: unknown; offset?: unknown; source?: unknown; end?: unknown };

const CLOSED_DOUBLE = /^"(?:[^"\\]|\\[\s\S])*"$/;
const CLOSED_SINGLE = /^'(?:[^']|'')*'$/;
const FLOW_ENDS = new Set(['flow-seq-end', 'flow-map-end']);

/** Whether a token opens a quote or a flow collection that it never closes. */
function unclosed(token: Token): boolean {
  const source = typeof token.source === 'string' ? token.source : '';
  if (token.type === 'double-quoted-scalar') return !CLOSED_DOUBLE.test(source);
  if (token.type === 'single-quoted-scalar') return !CLOSED_SINGLE.test(source);
  if (token.type === 'flow-collection')
    return !(Array.isArray(token.end) && token.end.some((end: Token) => FLOW_ENDS.has(String(end.type))));
  return false;
}

/** The offset of the first unclosed quote or flow collection in the text's syntax tree, if any. */
export function firstUnclosedOpener(text: string): number | undefined {
  let first: number | undefined;
  const visit = (value: unknown, depth: number): void => {
    // The tree of a lesson or config file is shallow; the bound keeps a hostile file cheap.
    if (depth > 64 || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1);
      return;
    }
    const token = value as Token;
    if (typeof token.offset === 'number' && unclosed(token) && (first === undefined || token.offset < first))
      first = token.offset;
    for (const [key, child] of Object.entries(token)) if (key !== 'source') visit(child, depth + 1);
  };
  try {
    for (const token of new Parser().parse(text)) visit(token, 0);
  } catch {
    return undefined; // the plain error line serves
  }
  return first;
}

export type ErrorLine = { line: number; note: string };

/**
 * The line to report for a syntax error noticed at `offset`: the line of an unclosed quote or flow
 * collection that opens before it (with a note naming where the parser stopped), else the error's
 * own line. `opener` is `firstUnclosedOpener` of the text, found once per file.
 */
export function syntaxErrorLine(offset: number, opener: number | undefined, lines: LineCounter): ErrorLine {
  const at = lines.linePos(offset).line;
  if (opener === undefined || opener >= offset) return { line: at, note: '' };
  const from = lines.linePos(opener).line;
  if (from === at) return { line: at, note: '' };
  return { line: from, note: ` (opened at line ${from} and never closed; the parser stopped at line ${at})` };
}
