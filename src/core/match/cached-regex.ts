/**
 * Lesson regexes compiled once per process, for the hook's matcher and the index's command filter
 * alike. Sources were checked safe when the lesson was written; one that does not compile never
 * matches.
 */
const regexCache = new Map<string, RegExp | null>();

export function cachedRegex(source: string): RegExp | null {
  let regex = regexCache.get(source);
  if (regex === undefined) {
    try {
      regex = new RegExp(source);
    } catch {
      regex = null;
    }
    regexCache.set(source, regex);
  }
  return regex;
}
