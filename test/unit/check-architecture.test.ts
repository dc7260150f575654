/** The ARCHITECTURE.md check of `npm run lint`: every source file named in its folder's section. */
import { describe, expect, it } from 'vitest';
import { findGaps, sectionsByFolder } from '../../scripts/check-architecture.mjs';

const DOC = [
  '# Architecture',
  '### `src/a/`',
  '- `one.ts`: the first; `two.ts` the second.',
  '### `src/b/`',
  'Only `three.ts` here, and src/a/one.ts by its full path.',
  '## On disk',
  '`four.ts` outside any folder section',
].join('\n');

describe('sectionsByFolder', () => {
  it('takes the text under each folder heading up to the next heading', () => {
    const sections = sectionsByFolder(DOC);
    expect([...sections.keys()]).toEqual(['src/a/', 'src/b/']);
    expect(sections.get('src/b/')).toContain('three.ts');
    expect(sections.get('src/b/')).not.toContain('four.ts');
  });
});

describe('findGaps', () => {
  it.each([
    ['every file named in its section', ['src/a/one.ts', 'src/a/two.ts', 'src/b/three.ts'], []],
    [
      'a file named only in another folder',
      ['src/a/one.ts', 'src/a/two.ts', 'src/b/three.ts', 'src/b/one.ts'],
      ['src/b/one.ts: not named in the section of `src/b/`'],
    ],
    [
      'a folder without a section',
      ['src/a/one.ts', 'src/a/two.ts', 'src/b/three.ts', 'src/c/four.ts'],
      ['src/c/four.ts: no section for its folder (add a heading "### `src/c/`")'],
    ],
    [
      'a name that only prefixes another',
      ['src/a/one.ts', 'src/a/two.ts', 'src/b/three.ts', 'src/b/hree.ts'],
      ['src/b/hree.ts: not named in the section of `src/b/`'],
    ],
    [
      'a section naming a file that is gone',
      ['src/a/one.ts', 'src/b/three.ts'],
      ['section `src/a/` names two.ts, which is not there'],
    ],
  ])('%s', (_name, files, expected) => {
    expect(findGaps(DOC, files)).toEqual(expected);
  });
});
