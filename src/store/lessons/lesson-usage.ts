/**
 * How often each lesson reached an agent, from the audit log: hook injections and denials, and
 * the MCP server's learnings sidecar. `times_injected` in `lore show` and the MCP tools, and the
 * "last injection" that `lore maintain`'s unused-decay step counts from.
 */
import { readAuditLog } from './audit-read.js';

export type LessonUsage = { timesInjected: number; lastInjectedAt: string | null };

export const NO_USAGE: LessonUsage = { timesInjected: 0, lastInjectedAt: null };

export function readLessonUsage(cacheDir: string): Map<string, LessonUsage> {
  const usage = new Map<string, LessonUsage>();
  for (const record of readAuditLog(cacheDir)) {
    const ids = new Set([...record.lessons, ...(record.denied ?? [])].map((item) => item.id));
    for (const id of ids) {
      const current = usage.get(id) ?? { timesInjected: 0, lastInjectedAt: null };
      current.timesInjected += 1;
      if (current.lastInjectedAt === null || record.time > current.lastInjectedAt)
        current.lastInjectedAt = record.time;
      usage.set(id, current);
    }
  }
  return usage;
}
