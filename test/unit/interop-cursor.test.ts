// Cursor rules as people write them (src/core/interop/cursor.ts): the frontmatter is read line by
// line, so each way of writing globs must come out as the same list of globs.
import { describe, expect, it } from 'vitest';
import { cursorFormat } from '../../src/core/interop/cursor.js';

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
