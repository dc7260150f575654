/**
 * Turns what a person typed (an id, any unique id prefix, a slug, or an alias such as an imported
 * ADD id `L-001`) into one lesson id.
 */
export type RefEntry = { id: string; slug: string; summary: string; tier: string; aliases?: string[] };

export type RefResolution =
  | { ok: true; entry: RefEntry }
  | { ok: false; reason: 'not-found' | 'ambiguous' | 'empty'; candidates: RefEntry[] };

const MAX_CANDIDATES = 10;

export function resolveRef(ref: string, entries: readonly RefEntry[]): RefResolution {
  const wanted = ref.trim().toLowerCase();
  if (wanted === '') return { ok: false, reason: 'empty', candidates: [] };

  const exact = entries.filter((entry) => entry.id === wanted);
  if (exact.length === 1 && exact[0]) return { ok: true, entry: exact[0] };

  const bySlug = entries.filter((entry) => entry.slug === wanted);
  const byAlias = entries.filter((entry) => entry.aliases?.some((alias) => alias.toLowerCase() === wanted));
  const byPrefix = entries.filter((entry) => entry.id.startsWith(wanted));
  const matches = dedupe([...exact, ...bySlug, ...byAlias, ...byPrefix]);
  if (matches.length === 1 && matches[0]) return { ok: true, entry: matches[0] };
  if (matches.length > 1)
    return { ok: false, reason: 'ambiguous', candidates: matches.slice(0, MAX_CANDIDATES) };

  const near = entries
    .filter((entry) => entry.slug.includes(wanted) || (wanted.length >= 3 && entry.id.includes(wanted)))
    .slice(0, MAX_CANDIDATES);
  return { ok: false, reason: 'not-found', candidates: near };
}

function dedupe(entries: RefEntry[]): RefEntry[] {
  const seen = new Map<string, RefEntry>();
  for (const entry of entries)
    if (!seen.has(`${entry.tier}:${entry.id}`)) seen.set(`${entry.tier}:${entry.id}`, entry);
  return [...seen.values()];
}
