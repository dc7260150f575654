/**
 * Cursor project rules: `.cursor/rules/<name>.mdc`, a frontmatter block (`description`, `globs`,
 * `alwaysApply`) and a Markdown body (Cursor's rules documentation). The frontmatter is not
 * strictly YAML (`globs: src/**\/*.ts, test/**` is usual), so it is read line by line.
 *
 *   Cursor rule          lore
 *   description          summary (else the first heading, else the file name)
 *   globs                paths
 *   body                 body (mistake/remediation/COIA as labelled paragraphs)
 *   alwaysApply, name    origin.fields, origin.id
 * One lesson per rule file. Tags, severity, triggers on tools and commands, votes: no place in a
 * rule, not exported.
 */
import type { Problem } from '../errors.js';
import { createImportedLesson, originFields, originId, restoreSummary } from './imported-lesson.js';
import type {
  ExportLesson,
  ImportedLesson,
  InteropFormat,
  ParsedSource,
  ParseOptions,
  Rendered,
  SourceFile,
} from './interop-format.js';
import { readsFile } from './interop-format.js';
import { foldSections, unfoldSections } from './lesson-sections.js';

const FORMATS = ['cursor'];

export const cursorFormat: InteropFormat = {
  name: 'cursor',
  title: 'Cursor rules: .cursor/rules/*.mdc',
  carries: [
    'summary',
    'body',
    'paths',
    'mistake',
    'remediation',
    'context',
    'observation',
    'implication',
    'action',
  ],
  claims: (file) => file.text !== undefined && file.path.endsWith('.mdc'),
  parse: parseCursor,
  render: renderCursor,
};

type Frontmatter = { values: Map<string, string[]>; bodyStart: number } | { error: string; line: number };

/** A YAML block scalar's header: `>` folds its lines, `|` keeps them (chomping and indent hints aside). */
const BLOCK_HEADER = /^([>|])[+-]?\d?[+-]?$/;

/**
 * The `---` block: each key's raw value, YAML list items under a key with no value, and a value
 * written over several lines as YAML allows it: a block scalar (`description: >-` and the indented
 * lines below) or a plain value continued on indented lines, each read as one line of text.
 */
function readFrontmatter(lines: readonly string[]): Frontmatter {
  if ((lines[0] ?? '').trim() !== '---') return { values: new Map(), bodyStart: 0 };
  const values = new Map<string, string[]>();
  let key: string | undefined;
  /** The lines of the value still being read: a block scalar's, or a plain value's continuation. */
  let open: { lines: string[]; fold: boolean } | undefined;
  const close = () => {
    if (open === undefined || key === undefined) return;
    const text = open.fold ? open.lines.join(' ').replace(/\s+/g, ' ').trim() : open.lines.join('\n').trim();
    values.set(key, text === '' ? [] : [text]);
    open = undefined;
  };
  for (let index = 1; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    if (line.trim() === '---') {
      close();
      return { values, bodyStart: index + 1 };
    }
    const indented = /^\s/.test(line);
    if (open !== undefined && (indented || line.trim() === '')) {
      open.lines.push(line.trim());
      continue;
    }
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const item = /^\s+-\s+(.*)$/.exec(line);
    if (item && key !== undefined) {
      values.get(key)?.push(unquote(item[1] ?? ''));
      continue;
    }
    close();
    const pair = /^([A-Za-z][\w-]*):\s*(.*)$/.exec(line);
    if (!pair) {
      const current = indented && key !== undefined ? values.get(key) : undefined;
      if (current?.length === 1) {
        // a plain value going on below its key, as YAML folds it: one line of text
        open = { lines: [current[0] ?? '', line.trim()], fold: true };
        continue;
      }
      return { error: `frontmatter line is not "key: value": ${line.trim().slice(0, 60)}`, line: index + 1 };
    }
    key = pair[1] ?? '';
    const value = (pair[2] ?? '').trim();
    const block = BLOCK_HEADER.exec(value);
    if (block) open = { lines: [], fold: block[1] === '>' };
    values.set(key, value === '' || block ? [] : [value]);
  }
  return { error: 'the frontmatter has no closing ---', line: 1 };
}

/** `alwaysApply` as YAML reads a boolean (`true`, `True`, `TRUE`, quoted or not), or undefined. */
function yamlBoolean(value: string): boolean | undefined {
  const text = unquote(value);
  if (/^(true|True|TRUE)$/.test(text)) return true;
  if (/^(false|False|FALSE)$/.test(text)) return false;
  return undefined;
}

/**
 * A YAML scalar's text: `"..."` with its escapes, `'...'` with `''` for a quote, else as written
 * (`"npm ci" beats "npm install"` is plain text that merely starts and ends with a quote).
 */
function unquote(text: string): string {
  const trimmed = text.trim();
  if (/^"(?:[^"\\]|\\.)*"$/.test(trimmed)) {
    try {
      return JSON.parse(trimmed) as string;
    } catch {
      return trimmed.slice(1, -1); // a YAML escape JSON lacks (\x41): the text inside, as it is
    }
  }
  if (/^'(?:[^']|'')*'$/.test(trimmed)) return trimmed.slice(1, -1).replaceAll("''", "'");
  return trimmed;
}

/** A summary as a description value that reads back as itself, here and in YAML. */
function quoteIfNeeded(text: string): string {
  const plain = !/^[\s"'[\]{}&*!|>%@`#,?:-]/.test(text) && !/: | #|:$|\s$/.test(text);
  return plain ? text : JSON.stringify(text);
}

function splitGlobs(values: readonly string[]): string[] {
  const out: string[] = [];
  for (const value of values) {
    const inner = value.startsWith('[') && value.endsWith(']') ? value.slice(1, -1) : value;
    for (const part of splitOutsideBraces(inner)) {
      const glob = unquote(part);
      if (glob !== '') out.push(glob);
    }
  }
  return out;
}

/**
 * `src/**\/*.{ts,tsx}, test/**` at the commas between globs: a comma inside braces is the glob's
 * own alternation (Cursor rules use it all the time), and a backslash keeps the next character.
 */
function splitOutsideBraces(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (char === '\\') index += 1;
    else if (char === '{') depth += 1;
    else if (char === '}' && depth > 0) depth -= 1;
    else if (char === ',' && depth === 0) {
      parts.push(text.slice(start, index));
      start = index + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

function parseCursor(files: readonly SourceFile[], options: ParseOptions): ParsedSource {
  const lessons: ImportedLesson[] = [];
  const problems: Problem[] = [];
  for (const file of files) {
    if (!readsFile(cursorFormat, file, options)) continue;
    const lines = (file.text ?? '').split('\n');
    const front = readFrontmatter(lines);
    if ('error' in front) {
      problems.push({
        file: file.path,
        line: front.line,
        message: `${front.error}; rule skipped`,
        severity: 'error',
      });
      continue;
    }
    const name = file.path.slice(file.path.lastIndexOf('/') + 1).replace(/\.mdc$/, '');
    const always = front.values.get('alwaysapply') ?? front.values.get('alwaysApply');
    if (always !== undefined && always.length > 0 && yamlBoolean(always[0] ?? '') === undefined) {
      problems.push({
        file: file.path,
        field: 'alwaysApply',
        message: `must be true or false, not ${always[0]}; rule skipped`,
        severity: 'error',
      });
      continue;
    }
    const description = unquote((front.values.get('description') ?? []).join(' '));
    const text = lines.slice(front.bodyStart).join('\n');
    const { body, sections } = unfoldSections(text);
    const heading = /^#\s+(.+)$/m.exec(text)?.[1]?.trim();
    const summary = description !== '' ? description : (heading ?? name.replace(/[-_]+/g, ' '));
    const fields: Record<string, unknown> = { frontmatter: Object.fromEntries(front.values) };
    const result = createImportedLesson({
      file: file.path,
      entry: `(${name})`,
      nowIso: options.nowIso,
      fields: {
        summary,
        ...(body === undefined || body === summary ? {} : { body }),
        ...sections,
        paths: splitGlobs(front.values.get('globs') ?? []),
      },
      origin: { format: 'cursor', id: name, fields },
    });
    if (result.ok) lessons.push(result.imported);
    else problems.push(...result.problems);
  }
  return { lessons, problems };
}

function renderCursor(lessons: readonly ExportLesson[]): Rendered {
  const skipped: Rendered['skipped'] = [];
  const files: Rendered['files'] = [];
  const used = new Set<string>();
  for (const lesson of lessons) {
    if (lesson.status !== 'active') {
      skipped.push({ id: lesson.id, reason: `a ${lesson.status} lesson has no rule` });
      continue;
    }
    let name = originId(lesson, FORMATS) ?? lesson.slug;
    if (used.has(name)) name = `${name}-${lesson.id}`;
    used.add(name);
    const fields = originFields(lesson, FORMATS);
    const front = (fields.frontmatter ?? {}) as Record<string, string[]>;
    const summary = restoreSummary(lesson, FORMATS);
    const original = (key: string) => (Array.isArray(front[key]) ? front[key] : undefined);
    const globs = splitGlobs(original('globs') ?? []);
    const sameGlobs = globs.join('\n') === lesson.paths.join('\n');
    const lines = ['---', `description: ${quoteIfNeeded(summary)}`];
    lines.push(
      sameGlobs && original('globs') !== undefined
        ? formatRaw('globs', original('globs') ?? [])
        : `globs: ${lesson.paths.join(', ')}`.trimEnd(),
    );
    const always = original('alwaysApply')?.[0] ?? 'false';
    lines.push(`alwaysApply: ${always}`);
    for (const [key, values] of Object.entries(front)) {
      if (['description', 'globs', 'alwaysApply'].includes(key) || !Array.isArray(values)) continue;
      lines.push(formatRaw(key, values));
    }
    lines.push('---');
    const body = foldSections(lesson.body, lesson);
    lines.push(body === '' ? summary : body, '');
    files.push({ path: `${name}.mdc`, text: lines.join('\n') });
  }
  return { files, skipped };
}

/** A frontmatter key as it was read: one value on the line, or YAML list items below. */
function formatRaw(key: string, values: readonly string[]): string {
  if (values.length <= 1) return `${key}: ${values[0] ?? ''}`.trimEnd();
  return [`${key}:`, ...values.map((value) => `  - ${value}`)].join('\n');
}
