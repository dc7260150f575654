/**
 * How often each lesson reached an agent, from every channel's injection records: hook
 * injections and denials and the MCP server's learnings sidecar (the audit log), and the task
 * pre-prompt (`lore prompt --task/--session`, injections.jsonl). `times_injected` in `lore show` and the MCP tools, and the
 * "last injection" that `lore maintain`'s unused-decay step counts from.
 */
import { readInjections } from './injection-log.js';

export type LessonUsage = { timesInjected: number; lastInjectedAt: string | null };

export const NO_USAGE: LessonUsage = { timesInjected: 0, lastInjectedAt: null };

export function readLessonUsage(cacheDir: string): Map<string, LessonUsage> {
  const usage = new Map<string, LessonUsage>();
  for (const record of readInjections(cacheDir)) {
    const current = usage.get(record.lesson) ?? { timesInjected: 0, lastInjectedAt: null };
    current.timesInjected += 1;
    if (current.lastInjectedAt === null || record.at > current.lastInjectedAt)
      current.lastInjectedAt = record.at;
    usage.set(record.lesson, current);
  }
  return usage;
}
