/**
 * The outcome records `lore scan` keeps (`<cache>/outcomes.jsonl` of the tier whose audit log held
 * the injection), from every own tier of the workspace, for `lore show`, the lesson page and the
 * analytics. Malformed lines are counted, skipped and reported as one problem per file.
 */
import { join } from 'node:path';
import type { Problem } from '../../core/errors.js';
import { parseOutcomeLines } from '../../core/analytics/summarize-outcomes.js';
import { OUTCOMES_FILE } from '../../core/feedback/outcome-record.js';
import type { OutcomeRecord } from '../../core/feedback/outcome-record.js';
import { readTail } from '../fs/read-tail.js';
import { ownCacheDirs } from '../replay/read-last-replay.js';
import type { Workspace } from '../workspace/workspace.js';

export type OutcomesRead = {
  records: OutcomeRecord[];
  /** Lines skipped because they were not outcome records. */
  malformed: number;
  problems: Problem[];
};

/** The newest 32 MB of each file are read (as the audit log is). */
const MAX_BYTES = 32 * 1024 * 1024;

export function readOutcomesIn(
  cacheDirs: readonly string[],
  displayPath: (path: string) => string = (path) => path,
): OutcomesRead {
  const records: OutcomeRecord[] = [];
  const problems: Problem[] = [];
  let malformed = 0;
  for (const dir of cacheDirs) {
    const path = join(dir, OUTCOMES_FILE);
    let text: string;
    let truncated: boolean;
    try {
      const tail = readTail(path, MAX_BYTES);
      text = tail.bytes.toString('utf8');
      truncated = tail.truncated;
    } catch (error) {
      problems.push({
        file: displayPath(path),
        message: `outcome records cannot be read (${(error as Error).message})`,
        severity: 'error',
      });
      continue;
    }
    // a read that starts inside the file starts inside a line: that line is not counted as malformed
    if (truncated) text = text.slice(text.indexOf('\n') + 1);
    const parsed = parseOutcomeLines(text);
    records.push(...parsed.records);
    malformed += parsed.malformed;
    if (parsed.malformed > 0)
      problems.push({
        file: displayPath(path),
        ...(truncated ? {} : { line: parsed.malformedAt[0] }),
        message: `${parsed.malformed} line(s) that are not outcome records were skipped${
          truncated
            ? ''
            : ` (line ${parsed.malformedAt.join(', ')}${parsed.malformed > parsed.malformedAt.length ? ', ...' : ''})`
        }`,
        severity: 'warning',
      });
  }
  return { records, malformed, problems };
}

export function readOutcomes(ws: Workspace): OutcomesRead {
  return readOutcomesIn(ownCacheDirs(ws), (path) => ws.displayPath(path));
}
