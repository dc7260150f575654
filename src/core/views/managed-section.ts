/**
 * The section lore keeps in an agent's instruction file (`AGENTS.md`, `CLAUDE.md`, `GEMINI.md`)
 * for agents without hooks: everything between the begin and end marker comments is lore's, every
 * byte outside them is the person's and is never changed. A file with broken markers is refused,
 * never guessed at.
 */

export const SECTION_BEGIN = '<!-- lore:begin -->';
export const SECTION_END = '<!-- lore:end -->';
const BEGIN_PREFIX = '<!-- lore:begin';
const END_PREFIX = '<!-- lore:end';
/** What both markers start with. */
const MARKER_PREFIX = '<!-- lore:';
const SECTION_NOTE =
  '<!-- Managed by lore (`lore render`): everything between lore:begin and lore:end is replaced. Edit outside the markers. -->';

export type SectionResult =
  | { ok: true; text: string; changed: boolean; placement: 'created' | 'appended' | 'replaced' }
  | { ok: false; line: number; message: string };

type Marker = { index: number; end: number; line: number };

/** A fence line: up to any indentation (list items indent theirs), three or more ` or ~, the rest. */
const FENCE_LINE = /^[ \t]*(`{3,}|~{3,})(.*)$/;

/**
 * The [start, end) offsets of the closed fenced code blocks (``` or ~~~) of a Markdown text: a
 * marker inside one is an example in the person's file (how the section looks), not the section.
 * A fence left open is not counted: the section lore appends after it would otherwise be hidden
 * from the next render, which would append another.
 */
export function fencedRanges(text: string): [number, number][] {
  const ranges: [number, number][] = [];
  let open: { fence: string; start: number } | undefined;
  let offset = 0;
  for (const line of text.split('\n')) {
    const match = FENCE_LINE.exec(line.replace(/\r$/, ''));
    const fence = match?.[1];
    const rest = match?.[2] ?? '';
    if (fence !== undefined && open === undefined) {
      // a backtick fence's info string has no backtick (else it is inline code)
      if (!(fence.startsWith('`') && rest.includes('`'))) open = { fence, start: offset };
    } else if (
      fence !== undefined &&
      open !== undefined &&
      fence[0] === open.fence[0] &&
      fence.length >= open.fence.length &&
      rest.trim() === ''
    ) {
      ranges.push([open.start, offset + line.length]);
      open = undefined;
    }
    offset += line.length + 1;
  }
  return ranges;
}

function findMarkers(text: string, prefix: string): Marker[] | { line: number } {
  const found: Marker[] = [];
  const fenced = fencedRanges(text);
  let from = 0;
  for (;;) {
    const index = text.indexOf(prefix, from);
    if (index < 0) return found;
    const inFence = fenced.find(([start, end]) => index >= start && index < end);
    if (inFence) {
      from = inFence[1];
      continue;
    }
    const close = text.indexOf('-->', index + prefix.length);
    const lineBreak = text.indexOf('\n', index);
    const line = lineOf(text, index);
    if (close < 0 || (lineBreak >= 0 && lineBreak < close)) return { line };
    found.push({ index, end: close + 3, line });
    from = close + 3;
  }
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < index; i = text.indexOf('\n', i + 1)) line += 1;
  return line;
}

/**
 * Marker text in a body (a lesson about the section itself) defused: `&lt;!-- lore:end -->` reads
 * the same once rendered, but is no marker, so the next render still finds one begin and one end.
 */
export function defuseMarkers(body: string): string {
  return body.replaceAll(MARKER_PREFIX, `&lt;${MARKER_PREFIX.slice(1)}`);
}

/** The whole managed block, markers included, without a line break after the end marker. */
export function renderSectionBlock(body: string): string {
  const safe = defuseMarkers(body);
  const text = safe.endsWith('\n') || safe === '' ? safe : `${safe}\n`;
  return `${SECTION_BEGIN}\n${SECTION_NOTE}\n${text}${SECTION_END}`;
}

/**
 * The person's line break: CRLF when every line break of their text is one (a file kept with
 * Windows line ends, where an LF section would leave it mixed), else LF.
 */
function lineBreakOf(text: string): '\r\n' | '\n' {
  const breaks = text.split('\n').length - 1;
  return breaks > 0 && text.split('\r\n').length - 1 === breaks ? '\r\n' : '\n';
}

function withLineBreaks(block: string, eol: '\r\n' | '\n'): string {
  return eol === '\n' ? block : block.replace(/\r?\n/g, eol);
}

/**
 * `existing` (undefined: no file yet) with the managed section set to `body`. Markers found once
 * each, begin before end: the block between them is replaced. No markers: the block is appended
 * after a blank line. Anything else (a begin without an end, two begins, an end first) is refused.
 * The section's lines end as the person's do (CRLF or LF).
 */
export function applyManagedSection(existing: string | undefined, body: string): SectionResult {
  if (existing === undefined)
    return { ok: true, text: `${renderSectionBlock(body)}\n`, changed: true, placement: 'created' };
  const begins = findMarkers(existing, BEGIN_PREFIX);
  const ends = findMarkers(existing, END_PREFIX);
  if (!Array.isArray(begins)) {
    return { ok: false, line: begins.line, message: `the ${SECTION_BEGIN} marker is not closed on its line` };
  }
  if (!Array.isArray(ends)) {
    return { ok: false, line: ends.line, message: `the ${SECTION_END} marker is not closed on its line` };
  }
  if (begins.length === 0 && ends.length === 0) {
    const eol = lineBreakOf(existing);
    const block = withLineBreaks(renderSectionBlock(body), eol);
    const separator =
      existing === '' || existing.endsWith(`${eol}${eol}`)
        ? ''
        : existing.endsWith(eol)
          ? eol
          : `${eol}${eol}`;
    const text = `${existing}${separator}${block}${eol}`;
    return { ok: true, text, changed: true, placement: 'appended' };
  }
  const [begin, secondBegin] = begins;
  const [end, secondEnd] = ends;
  if (secondBegin !== undefined) {
    return {
      ok: false,
      line: secondBegin.line,
      message: `a second ${SECTION_BEGIN} marker (the first is on line ${begin?.line})`,
    };
  }
  if (secondEnd !== undefined) {
    return {
      ok: false,
      line: secondEnd.line,
      message: `a second ${SECTION_END} marker (the first is on line ${end?.line})`,
    };
  }
  if (begin === undefined && end !== undefined) {
    return { ok: false, line: end.line, message: `${SECTION_END} without a ${SECTION_BEGIN} before it` };
  }
  if (begin !== undefined && end === undefined) {
    return { ok: false, line: begin.line, message: `${SECTION_BEGIN} without a ${SECTION_END} after it` };
  }
  if (begin === undefined || end === undefined) throw new Error('unreachable: markers checked above');
  if (end.index < begin.end) {
    return {
      ok: false,
      line: end.line,
      message: `${SECTION_END} comes before ${SECTION_BEGIN} (line ${begin.line})`,
    };
  }
  const [before, after] = [existing.slice(0, begin.index), existing.slice(end.end)];
  const block = withLineBreaks(renderSectionBlock(body), lineBreakOf(`${before}${after}`));
  const text = `${before}${block}${after}`;
  return { ok: true, text, changed: text !== existing, placement: 'replaced' };
}
