// Cursor rules as people write them (src/core/interop/cursor.ts): the frontmatter is read line by
// line, so each way of writing globs must come out as the same list of globs.
import { describe, expect, it } from 'vitest';
import { cursorFormat } from '../../src/core/interop/cursor.js';
import type { ExportLesson } from '../../src/core/interop/interop-format.js';

const NOW = '2026-11-23T12:00:00.000Z';

function parseRule(text: string) {
  return cursorFormat.parse([{ path: 'rule.mdc', text }], { nowIso: NOW });
}

const rule = (globs: string) =>
  `---\ndescription: Keep handlers small\n${globs}\nalwaysApply: false\n---\nBody.\n`;

describe('cursor rule globs', () => {
  it.each([
    { globs: 'globs: src/**/*.ts, test/**', paths: ['src/**/*.ts', 'test/**'] },
    { globs: 'globs: src/**/*.{ts,tsx}', paths: ['src/**/*.{ts,tsx}'] },
    { globs: 'globs: src/**/*.{ts,tsx}, lib/{a,b}/**', paths: ['src/**/*.{ts,tsx}', 'lib/{a,b}/**'] },
    { globs: 'globs: ["src/**/*.{js,jsx}", "docs/**"]', paths: ['src/**/*.{js,jsx}', 'docs/**'] },
    { globs: 'globs:\n  - "app/{models,views}/**"\n  - db/**', paths: ['app/{models,views}/**', 'db/**'] },
  ])('$globs', ({ globs, paths }) => {
    const parsed = parseRule(rule(globs));
    expect(parsed.problems).toEqual([]);
    expect(parsed.lessons.map((entry) => entry.lesson.paths)).toEqual([paths]);
  });
});

describe('cursor rule descriptions', () => {
  it.each([
    { written: 'Keep handlers small', summary: 'Keep handlers small' },
    { written: '"Keep handlers small"', summary: 'Keep handlers small' },
    { written: "'It''s the handler'", summary: "It's the handler" },
    { written: '"say \\"hi\\" first"', summary: 'say "hi" first' },
    { written: '"npm ci" beats "npm install"', summary: '"npm ci" beats "npm install"' },
  ])('$written', ({ written, summary }) => {
    const parsed = parseRule(`---\ndescription: ${written}\n---\nBody.\n`);
    expect(parsed.problems).toEqual([]);
    expect(parsed.lessons.map((entry) => entry.lesson.summary)).toEqual([summary]);
  });

  it.each([
    { front: 'description: >-\n  Keep handlers small\n  and pure', summary: 'Keep handlers small and pure' },
    { front: 'description: >\n  Keep handlers\n\n  small', summary: 'Keep handlers small' },
    { front: 'description: |\n  Keep handlers small', summary: 'Keep handlers small' },
    {
      front: 'description: Keep handlers\n  small and pure\nglobs: src/**',
      summary: 'Keep handlers small and pure',
    },
  ])('a description over several lines: $front', ({ front, summary }) => {
    const parsed = parseRule(`---\n${front}\nalwaysApply: false\n---\nBody.\n`);
    expect(parsed.problems).toEqual([]);
    expect(parsed.lessons.map((entry) => entry.lesson.summary)).toEqual([summary]);
  });

  it.each(['True', 'TRUE', 'False', '"true"', 'false'])(
    'alwaysApply: %s is a boolean, as YAML reads it',
    (value) => {
      const parsed = parseRule(`---\ndescription: Keep handlers small\nalwaysApply: ${value}\n---\nBody.\n`);
      expect(parsed.problems).toEqual([]);
      expect(parsed.lessons).toHaveLength(1);
    },
  );

  it('alwaysApply that is no boolean is refused with its field', () => {
    const parsed = parseRule(`---\ndescription: Keep handlers small\nalwaysApply: yes please\n---\nBody.\n`);
    expect(parsed.lessons).toEqual([]);
    expect(parsed.problems).toEqual([expect.objectContaining({ field: 'alwaysApply', severity: 'error' })]);
  });

  it.each([
    '"npm ci" beats "npm install"',
    "'single' quotes around a word",
    'Use pnpm: never npm',
    '# not a heading',
    '- not a list item',
    'It\'s "quoted" inside',
    'a back\\slash and a colon:',
  ])('the summary %j is exported so that it reads back the same', (summary) => {
    const [entry] = parseRule(`---\ndescription: placeholder\nglobs: src/**\n---\nBody.\n`).lessons;
    const lesson = { ...entry?.lesson, id: 'a000000001', summary, votes: [] } as ExportLesson;
    const rendered = cursorFormat.render([lesson], { nowIso: NOW, projectName: 'p' });
    const again = cursorFormat.parse(rendered.files, { nowIso: NOW });
    expect(again.problems).toEqual([]);
    expect(again.lessons.map((back) => back.lesson.summary)).toEqual([summary]);
  });
});
