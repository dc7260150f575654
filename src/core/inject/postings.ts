/**
 * Posting lists of the manifest: ascending lesson ordinals as base-36 gaps joined by commas
 * (`"0,3,a"` is 0, 3, 13). A string, not an array: the hook parses the whole table on every call,
 * and JSON strings parse an order of magnitude faster than arrays of numbers; it decodes only the
 * lists of the literals that occur in its input.
 */
export function encodePostings(ordinals: Iterable<number>): string {
  const sorted = [...new Set(ordinals)].sort((a, b) => a - b);
  let previous = 0;
  return sorted
    .map((n, i) => {
      const gap = i === 0 ? n : n - previous;
      previous = n;
      return gap.toString(36);
    })
    .join(',');
}

/** Adds the ordinals of `postings` to `out`; a malformed list adds nothing past its first bad gap. */
export function decodePostings(postings: string | undefined, out: number[] = []): number[] {
  if (postings === undefined || postings === '') return out;
  let n = 0;
  let first = true;
  for (const part of postings.split(',')) {
    const gap = parseInt(part, 36);
    if (!Number.isFinite(gap) || gap < 0) break;
    n = first ? gap : n + gap;
    first = false;
    out.push(n);
  }
  return out;
}

/** `postings` with `n` appended; `n` must be larger than every ordinal already in it. */
export function appendPosting(postings: string | undefined, n: number): string {
  if (postings === undefined || postings === '') return n.toString(36);
  const list = decodePostings(postings);
  const last = list[list.length - 1] as number;
  return `${postings},${(n - last).toString(36)}`;
}
