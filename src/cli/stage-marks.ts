/**
 * Where a whole-process command spends its time, for bench/stages.mjs: with LORE_STAGES=1 in the
 * environment, the end of each stage (ms since the process started) goes to stderr as one line,
 * `LORE_STAGES [[name, ms], ...]`, when the process exits. Off, a mark is one comparison.
 * Written to the file descriptor, not through process.stderr: setting that stream up at exit cost
 * 2-3 ms that the breakdown then counted as lore's exit (a bare `node -e 'process.exit()'` pays
 * 1.6 ms for its first process.stderr.write here).
 */
import { writeSync } from 'node:fs';

const on = process.env.LORE_STAGES === '1';
const marks: [string, number][] = [];

export function markStage(name: string): void {
  if (!on) return;
  if (marks.length === 0)
    process.once('exit', () => {
      try {
        writeSync(2, `LORE_STAGES ${JSON.stringify(marks)}\n`);
      } catch {
        // stderr closed: the marks are only for a benchmark
      }
    });
  marks.push([name, performance.now()]);
}
