// ARCHITECTURE.md tells a newcomer where any change goes: it has a section per source folder
// (a heading naming the folder in backticks, e.g. "### `src/store/fs/`") and names every file of
// that folder in it. This check, run by `npm run lint`, reports files no section names, folders
// without a section, and sections naming files that do not exist.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listTsFiles } from './source-files.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const ROOTS = ['src', 'web/src'];

/** Sections of the document by folder: `### \`src/x/\`` headings, each with its text. */
export function sectionsByFolder(markdown) {
  const sections = new Map();
  let current;
  for (const line of markdown.split('\n')) {
    const heading = /^#{2,4}\s+`([^`]+\/)`/.exec(line);
    if (heading) {
      current = heading[1];
      sections.set(current, '');
    } else if (/^#{1,4}\s/.test(line)) current = undefined;
    else if (current !== undefined) sections.set(current, `${sections.get(current)}${line}\n`);
  }
  return sections;
}

/** What the document misses or gets wrong about `files` (repository-relative paths). */
export function findGaps(markdown, files) {
  const sections = sectionsByFolder(markdown);
  const gaps = [];
  const folders = new Set();
  for (const file of files) {
    const slash = file.lastIndexOf('/');
    const folder = file.slice(0, slash + 1);
    const name = file.slice(slash + 1);
    folders.add(folder);
    const text = sections.get(folder);
    if (text === undefined)
      gaps.push(`${file}: no section for its folder (add a heading "### \`${folder}\`")`);
    else if (
      !new RegExp(`(^|[^\\w./-])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`).test(text)
    ) {
      gaps.push(`${file}: not named in the section of \`${folder}\``);
    }
  }
  for (const [folder, text] of sections) {
    if (!folders.has(folder)) {
      gaps.push(`section \`${folder}\`: no such source folder`);
      continue;
    }
    for (const match of text.matchAll(/`([\w.-]+\.(?:ts|mts))`/g)) {
      if (!files.includes(`${folder}${match[1]}`))
        gaps.push(`section \`${folder}\` names ${match[1]}, which is not there`);
    }
  }
  return gaps;
}

function main() {
  const files = ROOTS.flatMap((dir) => listTsFiles(join(root, dir))).map((file) => relative(root, file));
  const gaps = findGaps(readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8'), files);
  for (const gap of gaps) console.error(`ARCHITECTURE.md: ${gap}`);
  if (gaps.length > 0) process.exit(1);
  console.log(`ARCHITECTURE.md names all ${files.length} source files, by folder`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
