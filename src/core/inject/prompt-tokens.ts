/**
 * The tokens a prompt is matched by (create-matcher.ts, candidate-ordinals.ts): its lowercase
 * words, the path-like tokens it mentions and the fragments a command regex is tried on.
 *
 * Written as loops over character codes, not regexes: the hook is a fresh process per prompt,
 * where each regex is compiled on its first use, and global ones a second time to machine code
 * once they run again: matching a prompt (createMatcher) took a fresh hook process about 0.27 ms
 * with the eight regexes these replace, 0.1 ms without. Each function says which regex it stands
 * for; test/unit/prompt-tokens.test.ts checks them against those regexes.
 */
import { everyChar, isAlnum, isLetter, isLowerAlnum, isSpace, isWordChar } from './char-class.js';

/**
 * Lowercase words of a prompt, as summary words are cut: the matches of
 * `/[a-z0-9][a-z0-9_.-]*[a-z0-9]/g` in the lowercased prompt. A word starts at an alphanumeric and
 * ends at the last alphanumeric of the run of `[a-z0-9_.-]` that follows; one alone is no word.
 */
export function promptWords(prompt: string): Set<string> {
  const text = prompt.toLowerCase();
  const out = new Set<string>();
  const n = text.length;
  let i = 0;
  while (i < n) {
    if (!isLowerAlnum(text.charCodeAt(i))) {
      i += 1;
      continue;
    }
    let last = i;
    for (let j = i + 1; j < n; j += 1) {
      const c = text.charCodeAt(j);
      if (isLowerAlnum(c)) last = j;
      else if (c !== 95 && c !== 46 && c !== 45) break;
    }
    if (last > i) out.add(text.slice(i, last + 1));
    i = last + 1;
  }
  return out;
}

/** `[a-z0-9+.-]` with the `i` flag. */
function isSchemeChar(c: number): boolean {
  return isAlnum(c) || c === 43 || c === 46 || c === 45;
}

/**
 * The prompt with each URL replaced by a space: `prompt.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S{0,}/gi, ' ')`.
 * A URL starts at a letter that no word character precedes; its scheme runs to the first
 * character outside `[a-z0-9+.-]`, which must open `://`; it ends at white space.
 */
function withoutUrls(prompt: string): string {
  const n = prompt.length;
  let out = '';
  let kept = 0;
  let i = 0;
  while (i < n) {
    const c = prompt.charCodeAt(i);
    if (!isLetter(c) || (i > 0 && isWordChar(prompt.charCodeAt(i - 1)))) {
      i += 1;
      continue;
    }
    let j = i + 1;
    while (j < n && isSchemeChar(prompt.charCodeAt(j))) j += 1;
    if (prompt.startsWith('://', j)) {
      let end = j + 3;
      while (end < n && !isSpace(prompt.charCodeAt(end))) end += 1;
      out += `${prompt.slice(kept, i)} `;
      kept = end;
      i = end;
    } else i += 1;
  }
  return kept === 0 ? prompt : out + prompt.slice(kept);
}

/** `[\w.@~-]`: a character of a path token other than `/`. */
function isNameChar(c: number): boolean {
  return isWordChar(c) || c === 46 || c === 64 || c === 126 || c === 45;
}

/**
 * The matches of `/[\w.@~-]*[\w@~-][\w./@~-]{0,}/g`: a token runs over `[\w./@~-]` from where it
 * starts to the end of that run, and starts at the first position whose run up to its first `/`
 * holds a character other than `.`.
 */
function pathTokens(text: string): string[] {
  const n = text.length;
  const out: string[] = [];
  let i = 0;
  while (i < n) {
    let named = false;
    for (let j = i; j < n; j += 1) {
      const c = text.charCodeAt(j);
      if (!isNameChar(c)) break;
      if (c !== 46) {
        named = true;
        break;
      }
    }
    if (!named) {
      i += 1;
      continue;
    }
    let end = i + 1;
    while (end < n) {
      const c = text.charCodeAt(end);
      if (!isNameChar(c) && c !== 47) break;
      end += 1;
    }
    out.push(text.slice(i, end));
    i = end;
  }
  return out;
}

/** `/\.[A-Za-z0-9]{1,8}$/`: the token ends with an extension. */
function hasExtension(token: string): boolean {
  const dot = token.lastIndexOf('.');
  const length = token.length - dot - 1;
  return dot >= 0 && length >= 1 && length <= 8 && everyChar(token, isAlnum, dot + 1);
}

/**
 * Path-like tokens a prompt mentions (`src/app.ts`, `./tests/`, `pyproject.toml`): outside URLs,
 * those with a `/` or an extension, without a leading `./` or trailing slashes, relative ones only;
 * the first 64 of them, each once.
 */
export function promptPaths(prompt: string): string[] {
  const kept: string[] = [];
  for (const token of pathTokens(withoutUrls(prompt))) {
    if (!token.includes('/') && !hasExtension(token)) continue;
    let path = token.startsWith('./') ? token.slice(2) : token;
    let end = path.length;
    while (end > 0 && path.charCodeAt(end - 1) === 47) end -= 1;
    path = path.slice(0, end);
    if (path === '' || path.startsWith('/')) continue;
    kept.push(path);
    if (kept.length === 64) break;
  }
  return [...new Set(kept)];
}

/**
 * The `code spans` of a prompt: the groups of `/`([^`\n]{1,2000})`/g`, one to 2,000 characters
 * between two backticks on one line.
 */
function codeSpans(prompt: string): string[] {
  const out: string[] = [];
  let i = prompt.indexOf('`');
  while (i >= 0) {
    let j = i + 1;
    while (j < prompt.length && j - i <= 2001) {
      const c = prompt.charCodeAt(j);
      if (c === 96 || c === 10) break;
      j += 1;
    }
    const length = j - i - 1;
    if (length >= 1 && length <= 2000 && prompt.charCodeAt(j) === 96) {
      out.push(prompt.slice(i + 1, j));
      i = prompt.indexOf('`', j + 1);
    } else i = prompt.indexOf('`', i + 1);
  }
  return out;
}

/** Fragments of a prompt a command regex is tried on: each `code span` and each line, trimmed. */
export function promptCommands(prompt: string): string[] {
  return [
    ...codeSpans(prompt),
    ...prompt
      .split('\n')
      .slice(0, 200)
      .map((line) => line.trim()),
  ].filter((s) => s !== '');
}
