/**
 * A Markdown file's YAML frontmatter (between a first line `---` and the next `---` or `...`) and
 * its body. A file whose opening `---` is never closed has no frontmatter: all of it is body
 * (`isUnclosedFrontmatter` tells such a file from one without any).
 */
export type SplitDoc = {
  /** The YAML text, or undefined when the file has no frontmatter. */
  frontmatter: string | undefined;
  /** 1-based line of the first frontmatter line (2 when there is one). */
  frontmatterLine: number;
  body: string;
  /** 1-based line where the body starts. */
  bodyLine: number;
  /** Offsets of the frontmatter text in `text` (equal when there is none). */
  frontmatterStart: number;
  frontmatterEnd: number;
};

const OPEN = /^---[ \t]*\r?$/;
const CLOSE = /^(?:---|\.\.\.)[ \t]*\r?$/;

export function splitFrontmatter(text: string): SplitDoc {
  const bom = text.startsWith('\uFEFF') ? 1 : 0;
  const source = bom === 1 ? text.slice(1) : text;
  const none = {
    frontmatter: undefined,
    frontmatterLine: 2,
    body: source,
    bodyLine: 1,
    frontmatterStart: bom,
    frontmatterEnd: bom,
  };
  const firstEnd = source.indexOf('\n');
  const firstLine = firstEnd === -1 ? source : source.slice(0, firstEnd);
  if (!OPEN.test(firstLine) || firstEnd === -1) {
    return none;
  }
  let start = firstEnd + 1;
  let line = 2;
  while (start <= source.length) {
    const end = source.indexOf('\n', start);
    const current = end === -1 ? source.slice(start) : source.slice(start, end);
    if (CLOSE.test(current)) {
      return {
        frontmatter: source.slice(firstEnd + 1, start),
        frontmatterLine: 2,
        body: end === -1 ? '' : source.slice(end + 1),
        bodyLine: line + 1,
        frontmatterStart: bom + firstEnd + 1,
        frontmatterEnd: bom + start,
      };
    }
    if (end === -1) break;
    start = end + 1;
    line += 1;
  }
  return none;
}

/**
 * Whether a file without frontmatter opens one and never closes it: a `---` line followed by a
 * `field:` line. A file that merely starts with a `---` rule (then a heading or prose) is not one.
 */
export function isUnclosedFrontmatter(text: string, split: SplitDoc): boolean {
  return (
    split.frontmatter === undefined && /^\uFEFF?---[ \t]*\r?\n[A-Za-z_][\w-]*:(?:[ \t]|\r?\n)/.test(text)
  );
}
