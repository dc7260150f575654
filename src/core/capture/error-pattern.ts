/**
 * The `errors` pattern capture gives a lesson made from a failure: the words of the failure's
 * error line that say what went wrong, as a case-insensitive regex over a call's result, so the
 * lesson waits for that error and speaks beside it instead of before every call its command or
 * path matches. The words are, in this order: an exception's name (`ModuleNotFoundError`), the
 * words that gave the error its class (`Permission denied`, `command not found`), else the first
 * run of at least three plain words between quotes, paths and numbers (`File has not been read
 * yet`), else the longest run of two. The pattern must match the failure it came from, or there is none. Pure.
 */
import { errorClassPhrase } from '../outcome/error-class.js';

/** An exception's or error type's name. */
const EXCEPTION_NAME = /\b[A-Z][A-Za-z]*[a-z](?:Error|Exception)\b/;
/** What splits an error line into runs of plain words: quoted text, paths, numbers, punctuation. */
const SEPARATOR =
  /(["'`\u2018\u2019\u201c\u201d])[^"'`\u2018\u2019\u201c\u201d]*\1|\S*[\\/~]\S*|\S*\d\S*|[^\s\w'-]+/g;
const MAX_WORDS = 10;

function escapeWords(words: readonly string[]): string {
  return words.map((word) => word.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')).join('\\s+');
}

/** Runs of plain words in a line, in order. */
function wordRuns(line: string): string[][] {
  return line
    .replace(SEPARATOR, '\n')
    .split('\n')
    .map((run) =>
      run
        .trim()
        .split(/\s+/)
        .filter((word) => /^[A-Za-z][A-Za-z'-]*$/.test(word)),
    )
    .filter((words) => words.length > 0);
}

/** The words of an error line that name its error, or undefined when none do. */
export function errorWords(gist: string): string[] | undefined {
  const exception = EXCEPTION_NAME.exec(gist)?.[0];
  if (exception !== undefined) return [exception];
  const phrase = errorClassPhrase(gist)?.trim();
  if (phrase !== undefined && /[A-Za-z]{3}/.test(phrase)) return phrase.split(/\s+/);
  const runs = wordRuns(gist);
  const longest = [...runs].sort((a, b) => b.length - a.length)[0];
  const run =
    runs.find((words) => words.length >= 3) ??
    (longest !== undefined && longest.length >= 2 ? longest : undefined);
  return run?.slice(0, MAX_WORDS);
}

/**
 * The pattern over a call's result for a failure with this error line (`gist`) and output, or
 * undefined when its words cannot be named or would not match the output they came from.
 */
export function errorPattern(gist: string, output: string): string | undefined {
  if (gist === '' || gist === 'failed without output') return undefined;
  const words = errorWords(gist.replace(/\u2026$/, ''));
  if (words === undefined || words.length === 0) return undefined;
  const source = escapeWords(words);
  const regex = new RegExp(source, 'i');
  return regex.test(output) ? source : undefined;
}
