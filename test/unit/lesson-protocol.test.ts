// lessons-learned's protocol metric: well-formed #lesson blocks and malformed ones per reply.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { auditLessonBlocks, summarizeProtocol } from '../../src/core/capture/lesson-protocol.js';
import { lessonBlockBodies, parseLessonBlocks } from '../../src/core/capture/lesson-block.js';

const GOOD = '#lesson\ntool: Bash\nmistake: pytest hung\nfix: CI=1 pytest\n#/lesson';

describe('auditLessonBlocks', () => {
  it.each([
    ['no block', 'all done', 0, []],
    ['one block', `Fixed.\n${GOOD}`, 1, []],
    ['two blocks', `${GOOD}\nand\n${GOOD}`, 2, []],
    ['an unclosed block', '#lesson\ntool: Bash\nmistake: it hung', 0, ['unclosed']],
    ['an empty block', '#lesson\ntool: Bash\ntrigger: pytest\n#/lesson', 0, ['empty']],
    ['a good block, then an unclosed one', `${GOOD}\n#lesson\nmistake: x`, 1, ['unclosed']],
    ['a quoted block', `> #lesson\n> mistake: npm ci failed\n> fix: use npm install\n> #/lesson`, 1, []],
  ] as const)('%s', (_name, text, blocks, reasons) => {
    const audit = auditLessonBlocks(text);
    expect({ blocks: audit.blocks, reasons: audit.malformed.map((m) => m.reason) }).toEqual({
      blocks,
      reasons: [...reasons],
    });
  });
});

describe('summarizeProtocol', () => {
  it('counts sessions following the protocol, blocks per session and the malformed share', () => {
    const report = summarizeProtocol([
      { session: 'a', agent: 'codex', blocks: 3, malformed: 1 },
      { session: 'b', agent: 'codex', blocks: 0, malformed: 0 },
      { session: 'c', agent: 'claude-code', blocks: 0, malformed: 1 },
      { session: 'd', agent: 'claude-code', blocks: 1, malformed: 0 },
    ]);
    expect(report).toMatchObject({
      sessions: 4,
      following: 2,
      blocks: 4,
      malformed: 2,
      blocksPerSession: 1,
      malformedRatio: 0.333,
    });
    expect(report.bySession.map((s) => s.session)).toEqual(['a', 'c', 'd', 'b']);
  });
});

describe('#lesson blocks in one pass', () => {
  // The regexes the single pass replaced: each searched the rest of the text from every opener.
  const BLOCK = /(?:^|\n)[ \t>*_`]*#lesson\b[^\n]*\n([\s\S]*?)\n[ \t>*_`]*#\/lesson\b/g;
  const bodiesByRegex = (text: string) => [...text.matchAll(BLOCK)].map((m) => m[1] ?? '');
  const auditByRegex = (text: string) => {
    let closed = 0;
    let unclosed = 0;
    for (const match of text.matchAll(/(?:^|\n)[ \t>*_`]*#lesson\b[^\n]*/g)) {
      const rest = text.slice((match.index ?? 0) + match[0].length);
      const next = rest.search(/\n[ \t>*_`]*#lesson\b/);
      if (/\n[ \t>*_`]*#\/lesson\b/.test(next < 0 ? rest : rest.slice(0, next))) closed += 1;
      else unclosed += 1;
    }
    return { closed, unclosed };
  };
  const piece = fc.constantFrom(
    '#lesson',
    '#/lesson',
    '> #lesson',
    '  #/lesson',
    '#lessons',
    'mistake: m',
    'fix: f',
    'tool: Bash',
    'text',
    '',
    ' ',
    '#lesson x',
  );
  const texts = fc
    .array(fc.tuple(piece, fc.constantFrom('\n', '\n', ' ', '')), { maxLength: 14 })
    .map((parts) => parts.map(([p, sep]) => p + sep).join(''));

  it('finds the block bodies the regex found, and counts openers closed and unclosed as it did', () => {
    fc.assert(
      fc.property(texts, (text) => {
        expect(lessonBlockBodies(text)).toEqual(bodiesByRegex(text));
        const audit = auditLessonBlocks(text);
        const expected = auditByRegex(text);
        expect(audit.malformed.filter((m) => m.reason === 'unclosed')).toHaveLength(expected.unclosed);
      }),
      { numRuns: 3000 },
    );
  });

  it('a reply of 64,000 unclosed openers is read in one pass', () => {
    const text = '#lesson\nmistake: m\n'.repeat(64_000);
    expect(parseLessonBlocks(text)).toEqual([]);
    expect(auditLessonBlocks(text).malformed).toHaveLength(64_000);
  });
});
