/**
 * A doc's summary when its frontmatter has none: the first meaningful line of the body, with
 * heading marks, backticks and HTML comments stripped; else the file name title-cased; else
 * "Untitled document".
 */
import { withoutInvisible } from '../lesson/constants.js';

export const UNTITLED_DOC = 'Untitled document';
const MAX_SUMMARY = 200;

export function extractSummary(body: string, path: string): string {
  return firstMeaningfulLine(body) ?? titleFromFileName(path) ?? UNTITLED_DOC;
}

export function firstMeaningfulLine(body: string): string | undefined {
  const text = body.replace(/<!--[\s\S]*?(?:-->|$)/g, '\n');
  let fence: string | undefined;
  for (const raw of text.split('\n')) {
    const trimmed = raw.trim();
    const fenceMark = /^(```+|~~~+)/.exec(trimmed)?.[1];
    if (fence !== undefined) {
      if (fenceMark !== undefined && fenceMark[0] === fence[0] && fenceMark.length >= fence.length)
        fence = undefined;
      continue;
    }
    if (fenceMark !== undefined) {
      fence = fenceMark;
      continue;
    }
    const line = cleanLine(trimmed);
    if (line !== '') return line.length > MAX_SUMMARY ? `${line.slice(0, MAX_SUMMARY - 1).trimEnd()}…` : line;
  }
  return undefined;
}

function cleanLine(line: string): string {
  if (
    /^(?:[-*_]\s*){3,}$/.test(line) ||
    /^=+$/.test(line) ||
    (/^\|?[\s:|-]+\|?$/.test(line) && line.includes('-'))
  )
    return '';
  // control characters (escape sequences, BEL, NUL): a summary is shown on terminals and to agents
  return withoutInvisible(line)
    .replace(/^#{1,6}(?:\s+|$)/, '')
    .replace(/\s+#+\s*$/, '')
    .replace(/^>\s*/, '')
    .replace(/^(?:[-*+]|\d+[.)])\s+/, '')
    .replace(/`/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

export function titleFromFileName(path: string): string | undefined {
  const name = path.split('/').pop() ?? '';
  const stem = name.replace(/\.(?:md|markdown|mdx)$/i, '');
  const words = stem.split(/[-_.\s]+/).filter((word) => word !== '');
  if (words.length === 0) return undefined;
  return words.map((word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase()).join(' ');
}
