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

const BLOCK = /(?:^|\n)[ \t>*_`]*#lesson\b[^\n]*\n([\s\S]*?)\n[ \t>*_`]*#\/lesson\b/g;
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
  for (const match of text.matchAll(BLOCK)) {
    const block: LessonBlock = {
      tool: undefined,
      trigger: undefined,
      mistake: undefined,
      fix: undefined,
      tags: [],
    };
    let current: keyof LessonBlock | undefined;
    for (const rawLine of (match[1] ?? '').split('\n')) {
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
