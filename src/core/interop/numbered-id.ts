/** Ids like ADD's `L-007` or Orbit's `L-0042`: one past the highest number already used. */
export function nextNumberedId(prefix: string, width: number, used: ReadonlySet<string>): string {
  let highest = 0;
  for (const id of used) {
    if (!id.startsWith(prefix)) continue;
    const digits = id.slice(prefix.length);
    if (/^\d+$/.test(digits)) highest = Math.max(highest, Number(digits));
  }
  return `${prefix}${String(highest + 1).padStart(width, '0')}`;
}
