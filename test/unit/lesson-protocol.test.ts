// lessons-learned's protocol metric: well-formed #lesson blocks and malformed ones per reply.
import { describe, expect, it } from 'vitest';
import { auditLessonBlocks, summarizeProtocol } from '../../src/core/capture/lesson-protocol.js';

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
