/**
 * Edits a JSON settings file in place: only the span of the value lore adds, replaces or takes out
 * changes, so every other byte of the user's file (tabs, CRLF, `1e3`, a 20-digit integer, `\u00e9`
 * escapes, key order, blank lines, a missing final newline) stays as it was. Re-serialising the
 * whole file through `JSON.stringify` lost all of those.
 *
 * An edit names a value by its path (keys and array indexes). What lore inserts is serialised with
 * the file's own indentation unit and line ending, at the indentation of its neighbours; a
 * container written on one line gets its new member on that line. Each edit re-reads the text, so
 * a list of edits applies in order (take out the highest index first).
 *
 * The text must be valid JSON (the planners check it with `locateJsonError` first) with no byte
 * order mark (`keepingByteOrderMark` takes it off).
 */

type Span = { start: number; end: number };
type JsonNode =
  | (Span & { kind: 'object'; members: Member[] })
  | (Span & { kind: 'array'; elements: JsonNode[] })
  | (Span & { kind: 'scalar' });
type Member = { key: string; keyStart: number; keyEnd: number; value: JsonNode };

export type JsonPath = readonly (string | number)[];

export type JsonEdit =
  /** Replaces the value at `path`, or adds the member when its object has no such key. */
  | { op: 'set'; path: JsonPath; value: unknown; first?: boolean }
  /** Adds `value` at the end of the array at `path`. */
  | { op: 'append'; path: JsonPath; value: unknown }
  /** Takes out the member or element at `path` with its comma. */
  | { op: 'remove'; path: JsonPath };

function parseNode(text: string, from: number): JsonNode {
  let i = from;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i += 1;
  };
  const stringEnd = (at: number): number => {
    let j = at + 1;
    while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
    return j + 1;
  };
  const value = (): JsonNode => {
    ws();
    const start = i;
    const char = text[i];
    if (char === '{') {
      i += 1;
      const members: Member[] = [];
      ws();
      while (text[i] !== '}') {
        const keyStart = i;
        const keyEnd = stringEnd(i);
        const key = JSON.parse(text.slice(keyStart, keyEnd)) as string;
        i = keyEnd;
        ws();
        i += 1; // ':'
        members.push({ key, keyStart, keyEnd, value: value() });
        ws();
        if (text[i] === ',') i += 1;
        ws();
      }
      i += 1;
      return { kind: 'object', start, end: i, members };
    }
    if (char === '[') {
      i += 1;
      const elements: JsonNode[] = [];
      ws();
      while (text[i] !== ']') {
        elements.push(value());
        ws();
        if (text[i] === ',') i += 1;
        ws();
      }
      i += 1;
      return { kind: 'array', start, end: i, elements };
    }
    if (char === '"') i = stringEnd(i);
    else i += /^(?:true|false|null|-?[0-9.eE+-]+)/.exec(text.slice(i))![0].length;
    return { kind: 'scalar', start, end: i };
  };
  return value();
}

/** The member's span: from its key (or the element's start) to the end of its value. */
const spanOf = (child: Member | JsonNode): Span =>
  'key' in child ? { start: child.keyStart, end: child.value.end } : child;

type Located = { container: JsonNode & { kind: 'object' | 'array' }; index: number };

function locate(root: JsonNode, path: JsonPath): Located {
  let node = root;
  for (const [depth, step] of path.entries()) {
    const last = depth === path.length - 1;
    if (node.kind === 'object' && typeof step === 'string') {
      // JSON.parse keeps the last of duplicate keys; so does the edit
      const index = node.members.map((m) => m.key).lastIndexOf(step);
      if (last) return { container: node, index };
      if (index < 0) break;
      node = node.members[index]!.value;
    } else if (node.kind === 'array' && typeof step === 'number') {
      if (last) return { container: node, index: step < node.elements.length ? step : -1 };
      if (step >= node.elements.length) break;
      node = node.elements[step]!;
    } else break;
  }
  throw new Error(`edit-json-text: no container at ${JSON.stringify(path)}`);
}

const children = (container: Located['container']): (Member | JsonNode)[] =>
  container.kind === 'object' ? container.members : container.elements;

type Style = { eol: string; unit: string; oneLine: boolean };

function styleOf(text: string): Style {
  return {
    eol: text.includes('\r\n') ? '\r\n' : '\n',
    unit: /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ',
    oneLine: !text.trimEnd().includes('\n'),
  };
}

/** The whitespace that starts the line `offset` is on. */
function lineIndent(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))![0];
}

/** `value` as JSON text starting at a line indented by `indent` (one line in a one-line container). */
function serialise(value: unknown, indent: string, style: Style, inline: boolean): string {
  if (inline) return JSON.stringify(value);
  return JSON.stringify(value, null, style.unit).split('\n').join(`${style.eol}${indent}`);
}

function splice(text: string, start: number, end: number, insert: string): string {
  return `${text.slice(0, start)}${insert}${text.slice(end)}`;
}

function removeChild(text: string, { container, index }: Located): string {
  const list = children(container);
  if (list.length === 1) return splice(text, container.start + 1, container.end - 1, '');
  if (index > 0) return splice(text, spanOf(list[index - 1]!).end, spanOf(list[index]!).end, '');
  return splice(text, spanOf(list[0]!).start, spanOf(list[1]!).start, '');
}

function insertChild(
  text: string,
  { container }: Located,
  key: string | undefined,
  value: unknown,
  first: boolean,
): string {
  const style = styleOf(text);
  const list = children(container);
  const inner = text.slice(container.start, container.end);
  const colon =
    container.kind === 'object' && container.members[0] !== undefined
      ? text.slice(container.members[0].keyEnd, container.members[0].value.start)
      : (/"([ \t]*:[ \t]*)[^\s]/.exec(text)?.[1] ?? ': ');
  const entry = (indent: string, inline: boolean) =>
    `${key === undefined ? '' : `${JSON.stringify(key)}${colon}`}${serialise(value, indent, style, inline)}`;
  if (list.length === 0) {
    const expand = !style.oneLine || container.start === 0 || text.slice(0, container.start).trim() === '';
    if (!expand) return splice(text, container.start + 1, container.end - 1, entry('', true));
    const outer = lineIndent(text, container.start);
    const indent = `${outer}${style.unit}`;
    return splice(
      text,
      container.start + 1,
      container.end - 1,
      `${style.eol}${indent}${entry(indent, false)}${style.eol}${outer}`,
    );
  }
  const inline = !inner.includes('\n');
  const neighbour = spanOf(first ? list[0]! : list[list.length - 1]!);
  const before = text.slice(text.lastIndexOf('\n', neighbour.start - 1) + 1, neighbour.start);
  const indent = /^[ \t]*$/.test(before) ? before : `${lineIndent(text, container.start)}${style.unit}`;
  const gap = inline ? (/,\s/.test(inner) || colon.endsWith(' ') ? ' ' : '') : `${style.eol}${indent}`;
  if (first) return splice(text, neighbour.start, neighbour.start, `${entry(indent, inline)},${gap}`);
  return splice(text, neighbour.end, neighbour.end, `,${gap}${entry(indent, inline)}`);
}

function applyEdit(text: string, edit: JsonEdit): string {
  const root = parseNode(text, 0);
  if (edit.op === 'append') {
    const located = locate(root, [...edit.path, Number.MAX_SAFE_INTEGER]);
    return insertChild(text, located, undefined, edit.value, false);
  }
  const located = locate(root, edit.path);
  if (edit.op === 'remove') return located.index < 0 ? text : removeChild(text, located);
  if (located.index < 0) {
    const key = edit.path[edit.path.length - 1];
    return insertChild(
      text,
      located,
      typeof key === 'string' ? key : undefined,
      edit.value,
      edit.first === true,
    );
  }
  const old = children(located.container)[located.index]!;
  const node = 'key' in old ? old.value : old;
  const style = styleOf(text);
  const inline = !text.slice(located.container.start, located.container.end).includes('\n');
  return splice(
    text,
    node.start,
    node.end,
    serialise(edit.value, lineIndent(text, node.start), style, inline),
  );
}

/** Keys sorted at every level: two documents that differ only in key order compare equal. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
  );
}

/**
 * The text with the edits applied in place, when it then reads back as `expected` (what the planner
 * computed on the parsed document); otherwise, and for an empty or missing file, `expected` written
 * whole, as lore writes a file it creates.
 */
export function editJsonText(
  text: string | undefined,
  edits: readonly JsonEdit[],
  expected: unknown,
): string {
  const whole = `${JSON.stringify(expected, null, 2)}\n`;
  if (text === undefined || text.trim() === '') return whole;
  let edited = text;
  try {
    for (const edit of edits) edited = applyEdit(edited, edit);
    const same = JSON.stringify(canonical(JSON.parse(edited))) === JSON.stringify(canonical(expected));
    return same ? edited : whole;
  } catch {
    // a path the document does not have (duplicate keys): the whole file, as before
    return whole;
  }
}
