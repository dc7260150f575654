/**
 * The verbs people and agents run most, whose whole-process time is measured at 10,000 lessons
 * (issue 18): the reads, `sync` and `lore mcp`. bin.ts runs them from a CommonJS bundle run from
 * V8's code cache (fast-cli.ts, fast-launch.ts): loading some 25 ES modules, and Node's ES module
 * facades of `node:fs`, `node:crypto` and `node:util` (which load fs/promises, streams and all of
 * crypto), cost about 25 ms of a 140 ms `lore search`. No imports: bin.ts reads this first.
 */
export const FAST_VERB_NAMES = ['list', 'search', 'show', 'sync', 'mcp'] as const;

export type FastVerb = (typeof FAST_VERB_NAMES)[number];

export function isFastVerb(verb: string | undefined): verb is FastVerb {
  return (FAST_VERB_NAMES as readonly (string | undefined)[]).includes(verb);
}
