/**
 * A small parser for the JavaScript regular expressions lessons use over shell commands (no flags,
 * no `u` mode), enough to reason about them: which literals every match must contain
 * (regex-literals.ts) and whether a pattern can backtrack catastrophically (regex-safety.ts).
 * Anything it does not understand becomes an `opaque` node, which both users treat conservatively.
 */
export type RegexNode =
  | { kind: 'char'; value: string }
  /** Matches one character out of many: a class, `.`, `\d`, `\s`, `\w`, ... */
  | { kind: 'set'; source: string }
  /** Zero-width: `^`, `$`, `\b`, `\B`, lookarounds. */
  | { kind: 'assert'; source: string }
  | { kind: 'backref' }
  | { kind: 'seq'; items: RegexNode[] }
  | { kind: 'alt'; branches: RegexNode[] }
  | { kind: 'group'; body: RegexNode }
  | { kind: 'repeat'; body: RegexNode; min: number; max: number }
  | { kind: 'opaque' };

const SIMPLE_ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', f: '\f', v: '\v', 0: '\0' };

/** Parses `source`; undefined when it is not a pattern this parser can follow. */
export function parseRegex(source: string): RegexNode | undefined {
  let pos = 0;

  const parseAlt = (): RegexNode => {
    const branches = [parseSeq()];
    while (source[pos] === '|') {
      pos += 1;
      branches.push(parseSeq());
    }
    return branches.length === 1 ? (branches[0] as RegexNode) : { kind: 'alt', branches };
  };

  const parseSeq = (): RegexNode => {
    const items: RegexNode[] = [];
    while (pos < source.length && source[pos] !== '|' && source[pos] !== ')') {
      const atom = parseAtom();
      items.push(parseQuantifier(atom));
    }
    return { kind: 'seq', items };
  };

  const parseQuantifier = (atom: RegexNode): RegexNode => {
    const c = source[pos];
    let min: number;
    let max: number;
    if (c === '*') [min, max] = [0, Infinity];
    else if (c === '+') [min, max] = [1, Infinity];
    else if (c === '?') [min, max] = [0, 1];
    else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(pos));
      if (!m) return atom;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
      pos += m[0].length - 1;
    } else return atom;
    pos += 1;
    if (source[pos] === '?') pos += 1; // lazy: same language
    if (atom.kind === 'assert') return atom;
    return parseQuantifier({ kind: 'repeat', body: atom, min, max });
  };

  const parseClass = (): RegexNode => {
    const start = pos;
    pos += 1;
    if (source[pos] === '^') pos += 1;
    if (source[pos] === ']') pos += 1;
    while (pos < source.length && source[pos] !== ']') {
      if (source[pos] === '\\') pos += 1;
      pos += 1;
    }
    if (pos >= source.length) throw new Error('unterminated class');
    pos += 1;
    return { kind: 'set', source: source.slice(start, pos) };
  };

  const parseEscape = (): RegexNode => {
    pos += 1;
    const c = source[pos];
    if (c === undefined) throw new Error('trailing backslash');
    pos += 1;
    if (c === 'b' || c === 'B') return { kind: 'assert', source: `\\${c}` };
    if ('dDsSwW'.includes(c)) return { kind: 'set', source: `\\${c}` };
    if (/[1-9]/.test(c)) {
      while (/[0-9]/.test(source[pos] ?? '')) pos += 1;
      return { kind: 'backref' };
    }
    if (c === 'k' && source[pos] === '<') {
      const end = source.indexOf('>', pos);
      if (end < 0) return { kind: 'char', value: 'k' };
      pos = end + 1;
      return { kind: 'backref' };
    }
    if (c === 'x' && /^[0-9a-fA-F]{2}/.test(source.slice(pos))) {
      const value = String.fromCharCode(parseInt(source.slice(pos, pos + 2), 16));
      pos += 2;
      return { kind: 'char', value };
    }
    if (c === 'u' && /^[0-9a-fA-F]{4}/.test(source.slice(pos))) {
      const value = String.fromCharCode(parseInt(source.slice(pos, pos + 4), 16));
      pos += 4;
      return { kind: 'char', value };
    }
    if (c === 'c' || c === 'p' || c === 'P' || c === 'x' || c === 'u') return { kind: 'opaque' };
    const simple = SIMPLE_ESCAPES[c];
    if (simple !== undefined) {
      if (c === '0' && /[0-9]/.test(source[pos] ?? '')) return { kind: 'opaque' };
      return { kind: 'char', value: simple };
    }
    return { kind: 'char', value: c };
  };

  const parseGroup = (): RegexNode => {
    pos += 1;
    let lookaround: string | undefined;
    if (source.startsWith('?:', pos)) pos += 2;
    else if (/^\?<?[=!]/.test(source.slice(pos))) {
      const m = /^\?<?[=!]/.exec(source.slice(pos)) as RegExpExecArray;
      lookaround = m[0];
      pos += m[0].length;
    } else if (source.startsWith('?<', pos)) {
      const end = source.indexOf('>', pos);
      if (end < 0) throw new Error('bad group name');
      pos = end + 1;
    } else if (source[pos] === '?') throw new Error('unknown group');
    const body = parseAlt();
    if (source[pos] !== ')') throw new Error('unterminated group');
    pos += 1;
    if (lookaround !== undefined) return { kind: 'assert', source: `(${lookaround}...)` };
    return { kind: 'group', body };
  };

  const parseAtom = (): RegexNode => {
    const c = source[pos] as string;
    if (c === '(') return parseGroup();
    if (c === '[') return parseClass();
    if (c === '\\') return parseEscape();
    pos += 1;
    if (c === '.') return { kind: 'set', source: '.' };
    if (c === '^' || c === '$') return { kind: 'assert', source: c };
    if (c === '*' || c === '+' || c === '?') throw new Error('nothing to repeat');
    return { kind: 'char', value: c };
  };

  try {
    const node = parseAlt();
    if (pos !== source.length) return undefined;
    return node;
  } catch {
    return undefined;
  }
}
