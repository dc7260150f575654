/**
 * Stage 3, match: which candidate lessons apply to the event, and why (`matchedBy`).
 *
 * A lesson's `tools` filter tool calls. Its commands (regexes over the Bash command) and paths
 * (globs over repo-relative paths) trigger it; a lesson with neither is triggered by its tags
 * (`tool:pytest` when the command runs pytest, `lang:python` on a `.py` path), and failing
 * those by its tools alone. Prompts match commands and paths they mention, tag values, and at
 * least two words of the summary. `stack` gates all of it. A lesson with `contents` (regexes
 * over the text an Edit or Write would write) matches a tool call only by them (and its
 * commands on a shell call): one must match the written text, and its paths, if any, must match
 * too; its tags and tools alone never trigger it on a tool call. A lesson with `errors` waits for
 * its mistake: it matches only a call that already ran (`HookEvent.output`), where its other
 * triggers match and one of its errors (case-insensitive) matches the result; before a call runs it
 * is skipped as `awaits-error`, and a prompt never brings it. In the `outcome` half (a host that
 * already ran PreToolUse) only such lessons match: the others spoke before.
 */
import { stackAllows, LANGUAGE_EXTENSIONS } from './detect-stack.js';
import { ONE_WORD_KEY } from './candidate-ordinals.js';
import { promptCommands, promptPaths, promptWords } from './prompt-tokens.js';
import { isLetter, isSpace, isWordChar } from './char-class.js';
import { toolAllowed } from './tool-names.js';
import { cachedRegex } from '../match/cached-regex.js';
import type { HookEvent, ManifestLesson, Match, Skip } from './types.js';

export type MatchContext = {
  /** Repo-relative paths of the event (inside the project only). */
  repoPaths: readonly string[];
  stack: readonly string[];
};

const STRENGTH: Record<string, number> = {
  command: 3,
  content: 3,
  path: 3,
  error: 3,
  tag: 2,
  words: 1,
  tool: 1,
};

/** `error:<pattern>` for each of a lesson's errors the call's result matches (case-insensitive). */
export function errorReasons(errors: readonly string[], output: string): string[] {
  return errors.filter((source) => cachedRegex(source, 'i')?.test(output) === true).map((s) => `error:${s}`);
}

/**
 * A content lesson on a tool call: `content:<pattern>` for each pattern the written text matches
 * (multiline: `^` and `$` anchor at lines), with the path reasons when the lesson has paths, or
 * nothing. Patterns compile on first use, so calls that write nothing never compile them.
 */
function contentReasons(lesson: ManifestLesson, contents: string[], content: string, pathReasons: string[]) {
  if (lesson.paths.length > 0 && pathReasons.length === 0) return [];
  const hits = contents.filter((source) => cachedRegex(source, 'm')?.test(content) === true);
  return hits.length === 0 ? [] : [...hits.map((source) => `content:${source}`), ...pathReasons];
}

/** The simple commands of a shell command: `command.split(/&&|\|\||[;|&\n()]/)`. */
export function commandParts(command: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let i = 0;
  while (i < command.length) {
    const c = command.charCodeAt(i);
    // && and || first, as the regex's alternatives are tried; then & | ; newline ( )
    const width =
      (c === 38 || c === 124) && command.charCodeAt(i + 1) === c
        ? 2
        : c === 38 || c === 124 || c === 59 || c === 10 || c === 40 || c === 41
          ? 1
          : 0;
    if (width === 0) {
      i += 1;
      continue;
    }
    parts.push(command.slice(start, i));
    i += width;
    start = i;
  }
  parts.push(command.slice(start));
  return parts;
}

/** The words of a simple command: `part.trim().split(/\s+/)` (`['']` for a blank one). */
export function shellWords(part: string): string[] {
  const words: string[] = [];
  let i = 0;
  while (i < part.length && isSpace(part.charCodeAt(i))) i += 1;
  while (i < part.length) {
    let end = i;
    while (end < part.length && !isSpace(part.charCodeAt(end))) end += 1;
    words.push(part.slice(i, end));
    i = end;
    while (i < part.length && isSpace(part.charCodeAt(i))) i += 1;
  }
  return words.length === 0 ? [''] : words;
}

const WRAPPERS = new Set(['sudo', 'env', 'exec', 'time', 'nohup', 'command', 'npx', 'uvx']);

/**
 * A word before the program: an option, a wrapper or a variable assignment,
 * `/^([A-Za-z_][A-Za-z0-9_]*=\S*|sudo|env|exec|time|nohup|command|npx|uvx|-\S*)$/` on a word.
 */
function beforeProgram(word: string): boolean {
  if (word.startsWith('-') || WRAPPERS.has(word)) return true;
  const first = word.charCodeAt(0);
  if (!(isLetter(first) || first === 95)) return false;
  let i = 1;
  while (i < word.length && isWordChar(word.charCodeAt(i))) i += 1;
  return word.charCodeAt(i) === 61;
}

/** Program names a shell command runs: the first word of each simple command. */
export function commandPrograms(command: string): Set<string> {
  const out = new Set<string>();
  for (const part of commandParts(command)) {
    const words = shellWords(part);
    let i = 0;
    while (i < words.length && beforeProgram(words[i] ?? '')) i += 1;
    const program = words[i];
    if (program !== undefined && program !== '') {
      out.add(program);
      out.add(program.slice(program.lastIndexOf('/') + 1));
    }
    // `python -m pytest`, `uv run pytest`, `poetry run pytest`
    const next = words[i + 1];
    const after = words[i + 2];
    if ((next === '-m' || next === 'run') && after !== undefined) out.add(after);
  }
  return out;
}

function matchOne(
  lesson: ManifestLesson,
  event: HookEvent,
  ctx: MatchContext,
  programs: ReadonlySet<string>,
  prompt: { words: ReadonlySet<string>; lines: string[]; paths: string[] } | undefined,
): string[] {
  const reasons: string[] = [];
  const commandTexts = prompt ? prompt.lines : event.command !== undefined ? [event.command] : [];
  const paths = prompt ? [...ctx.repoPaths, ...prompt.paths] : ctx.repoPaths;
  // a regex is built only when there is text to try it on (an Edit has no command, a Bash call no
  // paths): building one costs a fresh process tens of microseconds
  if (commandTexts.length > 0) {
    for (const source of lesson.commands) {
      const regex = cachedRegex(source);
      if (regex !== null && commandTexts.some((text) => regex.test(text))) reasons.push(`command:${source}`);
    }
  }
  if (paths.length > 0) {
    lesson.pathRegexes.forEach((source, i) => {
      const regex = cachedRegex(source);
      if (regex !== null && paths.some((path) => regex.test(path))) reasons.push(`path:${lesson.paths[i]}`);
    });
  }
  const contents = lesson.contents;
  if (contents !== undefined && contents.length > 0 && !prompt) {
    const pathReasons = reasons.filter((reason) => reason.startsWith('path:'));
    const commandReasons = reasons.filter((reason) => reason.startsWith('command:'));
    if (event.content === undefined) return commandReasons;
    return [...commandReasons, ...contentReasons(lesson, contents, event.content, pathReasons)];
  }
  const triggerless = lesson.commands.length === 0 && lesson.paths.length === 0;
  // A prompt brings a lesson with a trigger only by naming it (its command or path, above): such a
  // lesson is shown at the call it is about, so loose words or tags in a prompt do not spend it.
  if (triggerless) {
    for (const tag of lesson.tags) {
      const colon = tag.indexOf(':');
      const category = tag.slice(0, colon);
      const value = tag.slice(colon + 1);
      if (prompt) {
        if (value.length >= 3 && prompt.words.has(value.toLowerCase())) reasons.push(`tag:${tag}`);
        continue;
      }
      if (category === 'tool' && programs.has(value)) reasons.push(`tag:${tag}`);
      if (
        category === 'lang' &&
        (LANGUAGE_EXTENSIONS[value] ?? []).some((ext) => paths.some((p) => p.endsWith(ext)))
      )
        reasons.push(`tag:${tag}`);
    }
  }
  if (prompt && event.event === 'UserPromptSubmit' && wordsCanBring(lesson)) {
    const hits = lesson.words.filter((word) => prompt.words.has(word));
    if (hits.length >= Math.min(2, lesson.words.length)) reasons.push(`words:${hits.join(',')}`);
  }
  // Scoped by tool alone: every call of its tools (an Agent/Task call too, whose prompt is read as
  // a prompt above), never a user's prompt. Scoped by its errors alone: every call (its errors
  // then decide).
  if (
    reasons.length === 0 &&
    triggerless &&
    event.event === 'PreToolUse' &&
    (lesson.tools.length > 0 || (lesson.errors ?? []).length > 0) &&
    lesson.tags.every((t) => !/^(tool|lang):/.test(t))
  ) {
    reasons.push(`tool:${event.tool ?? ''}`);
  }
  return reasons;
}

/**
 * Whether a prompt's words can bring the lesson: only a lesson without a trigger (a command or a
 * path: with one, a prompt brings it by naming it) that does not wait for an error (a prompt never
 * brings one). The manifest files only these under their summary words, so a prompt never reads
 * the lessons its words cannot bring.
 */
export function wordsCanBring(lesson: ManifestLesson): boolean {
  return (
    lesson.commands.length === 0 &&
    lesson.paths.length === 0 &&
    (lesson.errors ?? []).length === 0 &&
    lesson.words.length > 0
  );
}

/**
 * The keys a lesson words can bring is filed under in the words table: its summary words, `#` when
 * it has only one (one hit brings it), and `#<value>` for each tag value a prompt can name (one
 * hit of a summary word and that value bring it). A prompt reads only lessons that can match it.
 */
export function wordKeys(lesson: ManifestLesson): string[] {
  if (!wordsCanBring(lesson)) return [];
  const keys = new Set(lesson.words);
  if (lesson.words.length === 1) keys.add(ONE_WORD_KEY);
  for (const tag of lesson.tags) {
    const value = tag.slice(tag.indexOf(':') + 1);
    if (value.length >= 3) keys.add(`#${value.toLowerCase()}`);
  }
  return [...keys];
}

/** Whether an event's text is matched as a prompt (UserPromptSubmit, or an Agent/Task call). */
export function isPromptEvent(event: HookEvent): boolean {
  return (
    event.event === 'UserPromptSubmit' ||
    event.tool?.toLowerCase() === 'agent' ||
    event.tool?.toLowerCase() === 'task'
  );
}

/** Whether a lesson scoped to agents (`agents`) holds in the hook of the event's host; any host, unscoped. */
export function agentAllows(lesson: ManifestLesson, event: HookEvent): boolean {
  return lesson.agents === undefined || event.host === undefined || lesson.agents.includes(event.host);
}

export type LessonMatcher = (lesson: ManifestLesson) => { match?: Match; skip?: Skip } | undefined;

/** Matches one lesson at a time against an event, as `selectLessons` reads the candidates. */
export function createMatcher(event: HookEvent, ctx: MatchContext): LessonMatcher {
  const programs = event.command !== undefined ? commandPrograms(event.command) : new Set<string>();
  const promptText = isPromptEvent(event) ? event.prompt : undefined;
  const prompt =
    promptText === undefined
      ? undefined
      : { words: promptWords(promptText), lines: promptCommands(promptText), paths: promptPaths(promptText) };
  return (lesson) => {
    if (event.event === 'PreToolUse' && !toolAllowed(lesson.tools, event.tool)) return undefined;
    const errors = lesson.errors ?? [];
    const waits = errors.length > 0;
    if (waits ? event.event !== 'PreToolUse' : event.phase === 'outcome') return undefined;
    let matchedBy = matchOne(lesson, event, ctx, programs, prompt);
    if (matchedBy.length === 0) return undefined;
    if (!stackAllows(lesson.stack, ctx.stack)) {
      return { skip: { id: lesson.id, reason: 'stack-mismatch', matchedBy } };
    }
    if (!agentAllows(lesson, event)) return { skip: { id: lesson.id, reason: 'agent-mismatch', matchedBy } };
    if (waits) {
      if (event.output === undefined) return { skip: { id: lesson.id, reason: 'awaits-error', matchedBy } };
      const hits = errorReasons(errors, event.output);
      if (hits.length === 0) return undefined;
      matchedBy = [...hits, ...matchedBy];
    }
    const strength = Math.max(
      ...matchedBy.map((reason) => STRENGTH[reason.slice(0, reason.indexOf(':'))] ?? 0),
    );
    return { match: { lesson, matchedBy, strength } };
  };
}
