/**
 * Metadata from where a doc sits: `docs/design/<feature>/x.md` is a design doc of that feature;
 * directories named patterns, runbooks or glossary give their type; anything else is context.
 * The other directory names under the root become tags.
 */
import type { DocType } from './doc-record.js';

export type DocLayout = { type: DocType; tags: string[]; relatedFeatures: string[] };

const TYPE_DIRECTORIES: Readonly<Record<string, DocType>> = {
  design: 'design',
  designs: 'design',
  pattern: 'pattern',
  patterns: 'pattern',
  runbook: 'runbook',
  runbooks: 'runbook',
  glossary: 'glossary',
  glossaries: 'glossary',
  context: 'context',
};
const TYPE_FILES: Readonly<Record<string, DocType>> = { glossary: 'glossary', runbook: 'runbook' };
const NOT_TAGS = new Set(['docs', 'doc', 'documentation', '.']);

/** `path` and `root` are repo-relative POSIX paths; `root` is the docs root the walker found it under. */
export function inferDocLayout(path: string, root: string): DocLayout {
  const prefix = root === '.' || root === '' ? '' : `${root.replace(/\/+$/, '')}/`;
  const inside = prefix !== '' && path.startsWith(prefix) ? path.slice(prefix.length) : path;
  const segments = inside.split('/');
  const file = segments.pop() ?? '';
  const directories = segments.map((segment) => segment.toLowerCase());
  let type: DocType | undefined;
  let typeIndex = -1;
  directories.forEach((directory, index) => {
    const found = TYPE_DIRECTORIES[directory];
    if (type === undefined && found !== undefined) {
      type = found;
      typeIndex = index;
    }
  });
  const stem = file.replace(/\.(?:md|markdown|mdx)$/i, '').toLowerCase();
  type ??= TYPE_FILES[stem] ?? 'context';
  const feature = type === 'design' && typeIndex >= 0 ? directories[typeIndex + 1] : undefined;
  const tags = [
    ...new Set(
      directories.filter(
        (directory, index) => index !== typeIndex && !NOT_TAGS.has(directory) && directory !== '',
      ),
    ),
  ];
  return { type, tags, relatedFeatures: feature === undefined ? [] : [feature] };
}
