/**
 * Lesson regexes compiled once per process, for the hook's matcher and the index's command filter
 * alike. Sources were checked safe when the lesson was written; one that does not compile never
 * matches.
 */
const regexCaches = new Map<string, Map<string, RegExp | null>>();

/** `flags`: `m` for content patterns, which run over many lines (cached apart from the flagless form). */
export function cachedRegex(source: string, flags = ''): RegExp | null {
  let regexCache = regexCaches.get(flags);
  if (regexCache === undefined) regexCaches.set(flags, (regexCache = new Map()));
  let regex = regexCache.get(source);
  if (regex === undefined) {
    try {
      regex = new RegExp(source, flags);
    } catch {
      regex = null;
    }
    regexCache.set(source, regex);
  }
  return regex;
}
