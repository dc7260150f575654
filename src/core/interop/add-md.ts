/**
 * ADD's Markdown learnings: `.add/learnings.md` (or `library.md`), either the view ADD generates
 * from its JSON (`- **[high] title** (L-003, 2026-02-08)` with the body indented below, under one
 * `## Category` heading each) or the freeform file older ADD versions wrote by hand (dated bullets
 * under section headings, `### Checkpoint: ... — date` blocks). The reading follows ADD's own
 * migration: ids L-001, L-002, ... in file order (WL- in a library), the category from the
 * section heading, severity from a `[high]` marker (default medium), the date from the entry (else
 * the file's), scope project, stack [], classified_by agent, checkpoint_type retro.
 *
 * `renderAddMarkdown` writes the generated view; `confirmAddMarkdown` renders what was read and
 * reads it again, so an import can show that nothing was lost on the way.
 */
import type { Problem } from '../errors.js';
import type { Lesson } from '../lesson/schema.js';
import { ADD_FORMATS, assignAddIds, createAddLesson, isLibraryFile } from './add.js';
import { originFields, restoreSummary } from './imported-lesson.js';
import type {
  ExportLesson,
  ImportedLesson,
  InteropFormat,
  ParsedSource,
  ParseOptions,
  Rendered,
  RenderOptions,
  SourceFile,
} from './interop-format.js';
import { readsFile } from './interop-format.js';
import { nextNumberedId } from './numbered-id.js';

/** Section headings of the generated view, in ADD's order, for each lore category. */
const HEADINGS: readonly [string, string][] = [
  ['anti-pattern', 'Anti-Patterns'],
  ['technical', 'Technical'],
  ['architecture', 'Architecture'],
  ['performance', 'Performance'],
  ['process', 'Process'],
  ['collaboration', 'Collaboration'],
  ['security', 'Security'],
  ['testing', 'Testing'],
  ['tooling', 'Tooling'],
];

/** A section heading's category: the first keyword it contains; technical otherwise. */
const HEADING_KEYWORDS: readonly [RegExp, string][] = [
  [/anti[- ]?pattern|didn'?t work|did not work|mistake|pitfall|gotcha/, 'anti-pattern'],
  [/architect|decision/, 'architecture'],
  [/performance|speed|latency/, 'performance'],
  [/collaborat|profile|team|communicat/, 'collaboration'],
  [/process|checkpoint|workflow|retro/, 'process'],
  [/security/, 'security'],
  [/test/, 'testing'],
  [/tool/, 'tooling'],
];

const STRUCTURED =
  /^[-*] \*\*\[(critical|high|medium|low)\] (.+?)\*\*(?: \((W?L-\d+)(?:, (\d{4}-\d{2}-\d{2}))?\))?\s*$/;
const BULLET = /^[-*] (.*)$/;
const DATE_PREFIX = /^(\d{4}-\d{2}-\d{2}):?\s+/;
const SEVERITY_PREFIX = /^\[(critical|high|medium|low)\]\s+/;

export const addMarkdownFormat: InteropFormat = {
  name: 'add-md',
  title: "ADD's Markdown learnings: .add/learnings.md (generated view or freeform)",
  carries: ['summary', 'body', 'category', 'severity', 'tier', 'aliases'],
  claims: (file) =>
    file.text !== undefined &&
    (/(?:^|\/)(?:learnings|library)\.md$/.test(file.path) ||
      (file.path.endsWith('.md') &&
        /^# (?:Project Learnings|ADD Cross-Project Knowledge Library)/m.test(file.text))),
  parse: parseAddMarkdown,
  render: renderAddMarkdown,
};

type RawEntry = {
  line: number;
  title: string;
  body: string[];
  severity: string;
  category: string;
  id: string | undefined;
  date: string | undefined;
};

function parseAddMarkdown(files: readonly SourceFile[], options: ParseOptions): ParsedSource {
  const lessons: ImportedLesson[] = [];
  const problems: Problem[] = [];
  for (const file of files) {
    if (!readsFile(addMarkdownFormat, file, options)) continue;
    const read = readEntries(file, problems);
    const library = isLibraryFile(file.path);
    const used = new Set(
      read.entries.map((entry) => entry.id).filter((id): id is string => id !== undefined),
    );
    const fileDate = options.fileDates?.[file.path] ?? options.nowIso.slice(0, 10);
    for (const raw of read.entries) {
      const id = raw.id ?? nextNumberedId(library ? 'WL-' : 'L-', 3, used);
      used.add(id);
      const body = raw.body.join('\n').trim();
      const result = createAddLesson({
        file: file.path,
        entry: `line ${raw.line} (${id})`,
        id,
        title: raw.title,
        body: body === '' ? undefined : body,
        stack: [],
        category: raw.category,
        severity: raw.severity,
        date: raw.date ?? fileDate,
        archived: undefined,
        extra: {
          scope: library ? 'workstation' : 'project',
          source: read.project ?? (library ? '_workstation' : 'project'),
          classified_by: 'agent',
          checkpoint_type: 'retro',
        },
        library,
        format: 'add-md',
        nowIso: options.nowIso,
      });
      if (result.ok) lessons.push(result.imported);
      else problems.push(...result.problems.map((p) => ({ ...p, line: raw.line })));
    }
  }
  return { lessons, problems };
}

/** The entries of one Markdown file, in order; lines it cannot place are problems. */
function readEntries(file: SourceFile, problems: Problem[]): { project?: string; entries: RawEntry[] } {
  const lines = (file.text ?? '').split('\n');
  const entries: RawEntry[] = [];
  let project: string | undefined;
  let category = 'technical';
  let current: RawEntry | undefined;
  let block = false;
  let comment = false;
  const finish = () => {
    if (current) entries.push(current);
    current = undefined;
  };
  lines.forEach((text, index) => {
    const line = index + 1;
    const trimmed = text.trim();
    if (comment || trimmed.startsWith('<!--')) {
      comment = !trimmed.includes('-->');
      return;
    }
    if (trimmed === '') {
      if (current && !block) current.body.push('');
      return;
    }
    const title = /^# (.+)$/.exec(text);
    if (title) {
      finish();
      project = /\u2014\s*(.+)$/.exec(title[1] ?? '')?.[1]?.trim() ?? project;
      return;
    }
    const section = /^## (.+)$/.exec(text);
    if (section) {
      finish();
      block = false;
      category = categoryOfHeading(section[1] ?? '');
      return;
    }
    const heading = /^###+ (.+)$/.exec(text);
    if (heading) {
      finish();
      const date = /(\d{4}-\d{2}-\d{2})/.exec(heading[1] ?? '')?.[1];
      const name = (heading[1] ?? '')
        .replace(/\s*[\u2014\u2013-]\s*\d{4}-\d{2}-\d{2}/, '')
        .replace(/\s+[\u2014\u2013-]\s*$/, '')
        .trim();
      current = { line, title: name, body: [], severity: 'medium', category, id: undefined, date };
      block = true;
      return;
    }
    if (/^\s+\S/.test(text) && current) {
      current.body.push(block ? text : text.replace(/^ {1,2}/, ''));
      return;
    }
    if (/^>/.test(text) || /^-{3,}$/.test(trimmed) || /^\*[^*].*\*$/.test(trimmed)) return;
    const structured = STRUCTURED.exec(text);
    if (structured) {
      finish();
      block = false;
      current = {
        line,
        title: structured[2] ?? '',
        body: [],
        severity: structured[1] ?? 'medium',
        category,
        id: structured[3],
        date: structured[4],
      };
      return;
    }
    if (block && current) {
      current.body.push(text);
      return;
    }
    const bullet = BULLET.exec(text);
    if (bullet) {
      finish();
      let rest = (bullet[1] ?? '').trim();
      if (/^\(.*\)$/.test(rest)) return; // a placeholder such as "(No entries yet)"
      if (rest === '') {
        problems.push({ file: file.path, line, message: 'an empty bullet; skipped', severity: 'error' });
        return;
      }
      const date = DATE_PREFIX.exec(rest)?.[1];
      rest = rest.replace(DATE_PREFIX, '');
      const severity = SEVERITY_PREFIX.exec(rest)?.[1] ?? 'medium';
      rest = rest.replace(SEVERITY_PREFIX, '');
      const first = firstSentence(rest);
      current = {
        line,
        title: first,
        body: first === rest ? [] : [rest],
        severity,
        category,
        id: undefined,
        date,
      };
      return;
    }
    problems.push({
      file: file.path,
      line,
      message: `line not understood (not a heading, bullet or indented body); skipped: ${trimmed.slice(0, 60)}`,
      severity: 'warning',
    });
  });
  finish();
  return { ...(project === undefined ? {} : { project }), entries };
}

function categoryOfHeading(heading: string): string {
  const text = heading.toLowerCase();
  for (const [pattern, category] of HEADING_KEYWORDS) if (pattern.test(text)) return category;
  return 'technical';
}

/** The first sentence, as a title: up to the first `. ` (the whole text when there is none). */
function firstSentence(text: string): string {
  const match = /^(.+?[.!?])\s+\S/.exec(text);
  return match?.[1] ?? text;
}

/**
 * `learnings.md` for the project's lessons, `library.md` for the user tier's (as ADD keeps them).
 * Only active lessons: the view has no mark for an archived or superseded entry, so one written
 * there would come back active on import. They are left out with a note, as Orbit and Cursor do
 * (`--to add` keeps them, `archived: true`). Ids are numbered over every lesson all the same, so
 * a lesson has the same L-NNN in both ADD exports.
 */
export function renderAddMarkdown(lessons: readonly ExportLesson[], options: RenderOptions): Rendered {
  const ids = assignAddIds(lessons);
  const skipped: Rendered['skipped'] = [];
  const active = lessons.filter((lesson) => {
    if (lesson.status === 'active') return true;
    skipped.push({
      id: lesson.id,
      reason: `ADD's Markdown has no ${lesson.status} state (export --to add keeps it, archived)`,
    });
    return false;
  });
  const files: Rendered['files'] = [];
  for (const tier of ['project', 'user'] as const) {
    const group = active.filter((lesson) => lesson.tier === tier);
    if (group.length > 0 || (tier === 'project' && active.length === 0))
      files.push(renderMarkdownFile(group, ids, tier === 'user', options));
  }
  return { files, skipped };
}

function renderMarkdownFile(
  lessons: readonly ExportLesson[],
  ids: ReadonlyMap<string, string>,
  library: boolean,
  options: RenderOptions,
): Rendered['files'][number] {
  const out: string[] = library
    ? [
        '# ADD Cross-Project Knowledge Library',
        '',
        '> **Tier 2: User-Local Knowledge**',
        '> Generated by `lore export --to add-md` — edit the lessons in lore, not this file.',
      ]
    : [
        `# Project Learnings — ${options.projectName}`,
        '',
        '> **Tier 3: Project-Specific Knowledge**',
        '> Generated by `lore export --to add-md` — edit the lessons in lore, not this file.',
      ];
  const headingOf = (lesson: Lesson): string => {
    const original = originFields(lesson, ADD_FORMATS).category;
    const category = typeof original === 'string' ? original : lesson.category;
    return HEADINGS.find(([key]) => key === category)?.[1] ?? titleCase(category);
  };
  const order = [...HEADINGS.map(([, heading]) => heading)];
  for (const lesson of lessons) if (!order.includes(headingOf(lesson))) order.push(headingOf(lesson));
  for (const heading of order) {
    const group = lessons
      .filter((lesson) => headingOf(lesson) === heading)
      .sort((a, b) => (a.createdAt === b.createdAt ? 0 : a.createdAt < b.createdAt ? 1 : -1));
    if (group.length === 0) continue;
    out.push('', `## ${heading}`, '');
    for (const lesson of group) {
      const fields = originFields(lesson, ADD_FORMATS);
      const date = typeof fields.date === 'string' ? fields.date : lesson.createdAt.slice(0, 10);
      out.push(
        `- **[${lesson.severity}] ${restoreSummary(lesson, ADD_FORMATS)}** (${ids.get(lesson.id)}, ${date})`,
      );
      for (const line of (lesson.body ?? '').split('\n'))
        if (lesson.body !== undefined) out.push(line === '' ? '' : `  ${line}`);
    }
  }
  out.push(
    '',
    '---',
    `*${lessons.length} entries. Last updated: ${options.nowIso.slice(0, 10)}. Source: lore*`,
    '',
  );
  return { path: library ? 'library.md' : 'learnings.md', text: out.join('\n') };
}

function titleCase(text: string): string {
  return text
    .split(/[-_\s]+/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

export type MarkdownRoundTrip = { text: string; mismatches: string[] };

/**
 * Renders imported Markdown lessons as ADD's generated view and reads that back: every lesson must
 * come back with the same id, title, body, severity, category and date.
 */
export function confirmAddMarkdown(
  imported: readonly ImportedLesson[],
  path: string,
  options: RenderOptions & ParseOptions,
): MarkdownRoundTrip {
  const lessons = imported.map((entry, index) => ({
    ...entry.lesson,
    id: String(index).padStart(10, '0'),
    votes: [],
  }));
  const text = renderAddMarkdown(lessons, options).files[0]?.text ?? '';
  const again = parseAddMarkdown([{ path, text }], options);
  const key = (lesson: Lesson) => {
    const fields = originFields(lesson, ADD_FORMATS);
    return JSON.stringify([
      lesson.summary,
      lesson.body ?? '',
      lesson.severity,
      fields.category ?? lesson.category,
      fields.date ?? lesson.createdAt.slice(0, 10),
    ]);
  };
  const back = new Map(again.lessons.map((entry) => [entry.lesson.origin?.id, key(entry.lesson)]));
  const mismatches: string[] = [];
  for (const entry of imported) {
    const id = entry.lesson.origin?.id;
    if (back.get(id) !== key(entry.lesson))
      mismatches.push(`${entry.where}: reads back differently from the rendered view`);
  }
  for (const problem of again.problems)
    mismatches.push(`rendered view line ${problem.line ?? '?'}: ${problem.message}`);
  return { text, mismatches };
}
