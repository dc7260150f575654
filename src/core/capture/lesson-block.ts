/**
 * Tier 1: lessons the agent wrote down itself, as a block in its reply:
 *
 *   #lesson
 *   tool: Bash
 *   trigger: pytest
 *   mistake: pytest hung waiting on a TTY
 *   fix: run CI=1 pytest -p no:cacheprovider
 *   tags: lang:python, tool:pytest
 *   #/lesson
 *
 * `problem` is accepted for `mistake` and `solution` for `fix`; unknown keys are ignored and
 * missing ones defaulted. A block with neither a mistake nor a fix is no lesson.
 */

export type LessonBlock = {
  tool: string | undefined;
  trigger: string | undefined;
  mistake: string | undefined;
  fix: string | undefined;
  tags: string[];
};

/** An opener line (its newline not included) and a closer (from the newline before it). */
const OPENER = /(?:^|\n)[ \t>*_`]*#lesson\b[^\n]*/g;
const CLOSER = /\n[ \t>*_`]*#\/lesson\b/g;

/** Where each opener line ends (the index of its newline; the text's length when it has none). */
export function lessonOpeners(text: string): { index: number; end: number }[] {
  return [...text.matchAll(OPENER)].map((m) => ({ index: m.index ?? 0, end: (m.index ?? 0) + m[0].length }));
}

/** Where each closer starts (at the newline before it) and ends. */
export function lessonClosers(text: string): { index: number; end: number }[] {
  return [...text.matchAll(CLOSER)].map((m) => ({ index: m.index ?? 0, end: (m.index ?? 0) + m[0].length }));
}

/**
 * The bodies of the closed blocks, as one regex (`opener\n(body, shortest)\ncloser`, global)
 * finds them, in one pass over the openers and closers: that regex searched to the end of the text
 * from every opener without a closer, so a reply of many unclosed openers took quadratic time
 * (512 KB: 7 s). An opener pairs with the first closer at or after its body's start; openers
 * inside a block are part of its body.
 */
export function lessonBlockBodies(text: string): string[] {
  const closers = lessonClosers(text);
  const bodies: string[] = [];
  let c = 0;
  let after = 0;
  for (const opener of lessonOpeners(text)) {
    if (opener.index < after || text[opener.end] !== '\n') continue;
    const start = opener.end + 1;
    while (c < closers.length && (closers[c] as { index: number }).index < start) c += 1;
    const closer = closers[c];
    if (closer === undefined) break;
    bodies.push(text.slice(start, closer.index));
    after = closer.end;
  }
  return bodies;
}
const ALIASES: Record<string, keyof Omit<LessonBlock, 'tags'> | 'tags'> = {
  tool: 'tool',
  tools: 'tool',
  trigger: 'trigger',
  when: 'trigger',
  mistake: 'mistake',
  problem: 'mistake',
  fix: 'fix',
  solution: 'fix',
  tags: 'tags',
  tag: 'tags',
};

export function parseLessonBlocks(text: string): LessonBlock[] {
  if (!text.includes('#lesson')) return [];
  const blocks: LessonBlock[] = [];
  for (const body of lessonBlockBodies(text)) {
    const block: LessonBlock = {
      tool: undefined,
      trigger: undefined,
      mistake: undefined,
      fix: undefined,
      tags: [],
    };
    let current: keyof LessonBlock | undefined;
    for (const rawLine of body.split('\n')) {
      const line = rawLine.replace(/^[ \t>*-]+/, '');
      const field = /^([A-Za-z_]+)\s*:\s*(.*)$/.exec(line);
      const key = field ? ALIASES[(field[1] ?? '').toLowerCase()] : undefined;
      if (field && key) {
        current = key;
        const value = (field[2] ?? '').trim();
        if (key === 'tags') block.tags.push(...splitTags(value));
        else block[key] = value === '' ? undefined : value;
      } else if (field) {
        current = undefined;
      } else if (current !== undefined && current !== 'tags' && line.trim() !== '') {
        block[current] = `${block[current] ?? ''} ${line.trim()}`.trim();
      }
    }
    if (block.mistake !== undefined || block.fix !== undefined) blocks.push(block);
  }
  return blocks;
}

/**
 * Tags as written, split on commas and spaces; `lang: rust` (a space after the colon) is one tag,
 * `lang:rust`, and quotes, backticks and list brackets around tags are dropped.
 */
export function splitTags(value: string): string[] {
  return value
    .replace(/^\[|\]$/g, '')
    .replace(/([\w.-]):[ \t]+(?=[^\s,])/g, '$1:')
    .split(/[,\s]+/)
    .map((tag) => tag.trim().replace(/^["'`]+|["'`]+$/g, ''))
    .filter((tag) => tag !== '');
}
