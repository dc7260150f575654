/**
 * A value built on first use and kept: for zod schemas that a process may never need, so that
 * loading their module does not build them (`lore mcp` loads them all at every start).
 */
export function once<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => (built ??= { value: build() }).value;
}
