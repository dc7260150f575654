/**
 * Every import/export format, and the detection that picks one from the files it is given.
 */
import { addMarkdownFormat } from './add-md.js';
import { addFormat } from './add.js';
import { coiaFormat } from './coia.js';
import { cursorFormat } from './cursor.js';
import type { InteropFormat, InteropFormatName, SourceFile } from './interop-format.js';
import { lessonsLearnedFormat } from './lessons-learned.js';
import { orbitFormat } from './orbit.js';

export const INTEROP_FORMAT_LIST: readonly InteropFormat[] = [
  orbitFormat,
  lessonsLearnedFormat,
  addFormat,
  addMarkdownFormat,
  coiaFormat,
  cursorFormat,
];

export function findInteropFormat(name: InteropFormatName): InteropFormat {
  const format = INTEROP_FORMAT_LIST.find((candidate) => candidate.name === name);
  if (!format) throw new Error(`unknown interop format ${name}`);
  return format;
}

export type Detection =
  | { ok: true; format: InteropFormat; files: SourceFile[] }
  | { ok: false; reason: 'none' }
  | { ok: false; reason: 'ambiguous'; candidates: InteropFormatName[] };

/**
 * The format the files are in: the one format that claims any of them. ADD's Markdown is the view
 * ADD generates from its JSON, so when both are there the JSON is the source.
 */
export function detectInteropFormat(files: readonly SourceFile[]): Detection {
  const claimed = INTEROP_FORMAT_LIST.filter((format) => files.some((file) => format.claims(file)));
  const candidates = claimed.some((format) => format.name === 'add')
    ? claimed.filter((format) => format.name !== 'add-md')
    : claimed;
  const [only] = candidates;
  if (candidates.length === 1 && only) return { ok: true, format: only, files: [...files] };
  if (candidates.length === 0) return { ok: false, reason: 'none' };
  return { ok: false, reason: 'ambiguous', candidates: candidates.map((format) => format.name) };
}
