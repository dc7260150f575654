/**
 * A fast reader for the YAML lore itself writes (`serializeLesson`): top-level `key: value`
 * lines, lists of scalars (`  - item`), `|` / `|-` block scalars, plain, double- and
 * single-quoted scalars, comments and blank lines. Anything else, or anything whose meaning it is
 * not sure of (numbers in other forms, nulls, escapes beyond JSON's, nested maps, duplicate keys,
 * tabs, CR), makes it answer `undefined`, and the caller runs the full YAML parser, which also
 * reports problems with their lines. When it answers, the value equals what the full parser's
 * `toJS()` gives (YAML 1.2 core schema), which a property test checks.
 *
 * A sync of 10,000 lessons spends most of its time in the YAML parser; this reads a lesson file
 * in a fraction of that.
 */

const NOT_CANONICAL = Symbol('not canonical');
type Scalar = string | number | boolean | typeof NOT_CANONICAL;

const KEY_LINE = /^([A-Za-z][A-Za-z0-9_]*):(?: (.*))?$/;
// eslint-disable-next-line no-control-regex -- rejecting control characters is the point
const DOUBLE_QUOTED = /^"(?:[^"\\\u0000-\u001f\u007f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"$/;
// eslint-disable-next-line no-control-regex -- rejecting control characters is the point
const SINGLE_QUOTED = /^'(?:[^'\u0000-\u001f\u007f]|'')*'$/;
// eslint-disable-next-line no-control-regex -- rejecting control characters is the point
const CONTROL = /[\u0000-\u001f\u007f\u0085\u2028\u2029\ufeff]/;
/** Starts of plain scalars that are not plain strings in every position: left to the full parser. */
const INDICATOR_START = /^(?:[?:,[\]{}#&*!|>'"%@`\s]|-(?![0-9]))/;
/** What the core schema reads as a number (ints, hex, octal, floats, exponents, .inf, .nan). */
const CORE_NUMBER =
  /^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?)$/;
/** The numbers read here; any other number form is left to the full parser. */
const INT = /^-?(?:0|[1-9][0-9]{0,14})$/;
const FLOAT = /^-?(?:0|[1-9][0-9]{0,14})\.[0-9]{1,15}$/;
const CORE_WORDS: Record<string, boolean | null> = {
  true: true,
  True: true,
  TRUE: true,
  false: false,
  False: false,
  FALSE: false,
  null: null,
  Null: null,
  NULL: null,
  '~': null,
};

function readScalar(text: string): Scalar {
  if (text.startsWith('"')) return DOUBLE_QUOTED.test(text) ? (JSON.parse(text) as string) : NOT_CANONICAL;
  if (text.startsWith("'"))
    return SINGLE_QUOTED.test(text) ? text.slice(1, -1).replace(/''/g, "'") : NOT_CANONICAL;
  if (text === '' || INDICATOR_START.test(text) || CONTROL.test(text)) return NOT_CANONICAL;
  if (text.endsWith(' ') || text.endsWith(':') || text.includes(': ') || text.includes(' #'))
    return NOT_CANONICAL;
  if (Object.hasOwn(CORE_WORDS, text)) {
    const word = CORE_WORDS[text];
    return word === null || word === undefined ? NOT_CANONICAL : word;
  }
  if (CORE_NUMBER.test(text)) return INT.test(text) || FLOAT.test(text) ? Number(text) : NOT_CANONICAL;
  return text;
}

/** The mapping a canonical lesson file holds, or `undefined` when the full parser must read it. */
export function readCanonicalYaml(text: string): Record<string, unknown> | undefined {
  const lines = text.split('\n');
  const out: Record<string, unknown> = {};
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] as string;
    if (line === '' || (line.startsWith('#') && !CONTROL.test(line))) {
      i += 1;
      continue;
    }
    const match = KEY_LINE.exec(line);
    if (match === null) return undefined;
    const key = match[1] as string;
    const rest = match[2];
    if (Object.hasOwn(out, key)) return undefined;
    i += 1;
    if (rest === undefined) {
      // `key:` then a list, one `  - item` per line: scalars, or flat maps of scalars
      // (`  - kind: commit` then `    ref: abc`), as evidence is written.
      const items: unknown[] = [];
      while (i < lines.length && (lines[i] as string).startsWith('  - ')) {
        const text = (lines[i] as string).slice(4);
        i += 1;
        const pair = KEY_LINE.exec(text);
        if (pair === null) {
          const item = readScalar(text);
          if (item === NOT_CANONICAL) return undefined;
          items.push(item);
          continue;
        }
        const map: Record<string, unknown> = {};
        let line: string | undefined = `    ${text}`;
        while (line !== undefined) {
          const field = KEY_LINE.exec(line.slice(4));
          if (field === null || field[2] === undefined || Object.hasOwn(map, field[1] as string))
            return undefined;
          const value = readScalar(field[2]);
          if (value === NOT_CANONICAL) return undefined;
          map[field[1] as string] = value;
          const next = lines[i];
          line =
            next !== undefined && next.startsWith('    ') && !next.startsWith('     ') ? next : undefined;
          if (line !== undefined) i += 1;
        }
        items.push(map);
      }
      if (items.length === 0) return undefined;
      out[key] = items;
      continue;
    }
    if (rest === '|' || rest === '|-') {
      // A literal block indented by two spaces; the first line sets the indentation, so it must
      // have exactly two.
      const first = lines[i];
      if (first === undefined || !/^ {2}[^ \t]/.test(first)) return undefined;
      const body: string[] = [];
      while (i < lines.length) {
        const next = lines[i] as string;
        if (next.startsWith('  ')) body.push(next.slice(2));
        else if (next === '') body.push('');
        else break;
        i += 1;
      }
      if (body.some((part) => CONTROL.test(part.replace(/\t/g, '')) || /^[ \t]+$/.test(part)))
        return undefined;
      while (body.length > 0 && body[body.length - 1] === '') body.pop();
      out[key] = rest === '|-' ? body.join('\n') : `${body.join('\n')}\n`;
      continue;
    }
    const value = readScalar(rest);
    if (value === NOT_CANONICAL) return undefined;
    out[key] = value;
  }
  return out;
}
