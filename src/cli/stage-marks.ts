/**
 * Where a whole-process command spends its time, for bench/stages.mjs: with LORE_STAGES=1 in the
 * environment, the end of each stage (ms since the process started) goes to stderr as one line,
 * `LORE_STAGES [[name, ms], ...]`, when the process exits. Off, a mark is one comparison.
 */
const on = process.env.LORE_STAGES === '1';
const marks: [string, number][] = [];

export function markStage(name: string): void {
  if (!on) return;
  if (marks.length === 0)
    process.once('exit', () => process.stderr.write(`LORE_STAGES ${JSON.stringify(marks)}\n`));
  marks.push([name, performance.now()]);
}
