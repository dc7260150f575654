/**
 * One record of a lesson shown to an agent: what was shown, to which task or session, by which
 * channel, and the feedback on it. The Persistent Learnings Layer's `learning_injections` row
 * (unique per lesson and task), in lore's words.
 *
 * This is also the audit record the `lore replay` issue (#17) reuses: every channel's injections
 * (the pre-prompt's records, and the hooks' and the MCP sidecar's audit-log lines) read as this
 * one shape, so replay compares like with like. Pure: no clock, no files.
 */

/** How the lesson reached the agent. */
export const INJECTION_CHANNELS = ['prompt', 'hook', 'mcp'] as const;
export type InjectionChannel = (typeof INJECTION_CHANNELS)[number];

export type InjectionFeedback = { helpful: boolean; at: string };

export type InjectionRecord = {
  lesson: string;
  /** The task it was shown for: a task id, or `session:<id>` when only the session is known. */
  task: string;
  /** The agent session, when known (the hook's dedup scope). */
  session: string | null;
  channel: InjectionChannel;
  /** When it was shown (ISO, UTC). */
  at: string;
  /** Why it was chosen (`path:db/**`, `text:summary`, ...). */
  matchedBy: string[];
  /** Filled in on read from the lesson's feedback for the same task; null until there is some. */
  feedback: InjectionFeedback | null;
};

/** One record per lesson and task: the key the log is deduplicated on. */
export function injectionKey(record: Pick<InjectionRecord, 'lesson' | 'task'>): string {
  return `${record.lesson}\u0000${record.task}`;
}

/** The task a record is filed under: the task id, else the session. */
export function injectionTask(task: string | undefined, session: string | undefined): string | undefined {
  if (task !== undefined && task.trim() !== '') return task.trim();
  if (session !== undefined && session.trim() !== '') return `session:${session.trim()}`;
  return undefined;
}

/**
 * The records with the feedback each got: the latest report for the same lesson and task (a
 * `session:` task also takes feedback given for the bare session id).
 */
export function attachFeedback(
  records: readonly InjectionRecord[],
  feedback: ReadonlyMap<string, readonly { task: string; helpful: boolean; at: string }[]>,
): InjectionRecord[] {
  return records.map((record) => {
    const tasks = new Set([record.task, record.session ?? '', record.task.replace(/^session:/, '')]);
    const reports = (feedback.get(record.lesson) ?? []).filter((item) => tasks.has(item.task));
    const latest = reports.reduce<(typeof reports)[number] | undefined>(
      (best, item) => (best === undefined || item.at > best.at ? item : best),
      undefined,
    );
    return { ...record, feedback: latest ? { helpful: latest.helpful, at: latest.at } : record.feedback };
  });
}
