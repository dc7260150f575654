/**
 * Analytics for the dashboard, from the hook's audit log, the lessons, their feedback and the
 * candidates. Pure: records in, numbers out; the clock arrives as an argument.
 */

/** The fields of an audit line analytics reads (store/audit-log.ts writes them). */
export type UsageAuditRecord = {
  time: string;
  session: string;
  event: string;
  tool: string | null;
  lessons: { id: string }[];
  denied: { id: string }[];
};

export type UsageLesson = {
  id: string;
  tier: string;
  status: string;
  summary: string;
  /** How the lesson came to be: `capture` (approved candidate), `import`, `manual`, ... */
  source: string;
};

export type UsageFeedback = { id: string; helpful: boolean; at: string };
export type UsageCandidate = { agents: readonly string[]; kind: string };

export type Usage = {
  days: number;
  totals: { calls: number; injections: number; denials: number; sessions: number; lessonsFired: number };
  /** One entry per day (UTC), oldest first, zeros included. */
  injectionsPerDay: { day: string; injections: number; denials: number }[];
  topLessons: {
    id: string;
    summary: string;
    fires: number;
    helpful: number;
    notHelpful: number;
    lastFired: string | null;
  }[];
  /** Every lesson that fired in the period: id -> times injected or denied. */
  fires: Record<string, number>;
  helpful: { helpful: number; notHelpful: number; ratio: number | null };
  lessonsBySource: { source: string; project: number; user: number }[];
  lessonsByTier: { tier: string; active: number; superseded: number; archived: number }[];
  candidatesBySource: { source: string; count: number }[];
};

const DAY_MS = 86_400_000;

export function summarizeUsage(input: {
  audit: readonly UsageAuditRecord[];
  lessons: readonly UsageLesson[];
  feedback: readonly UsageFeedback[];
  candidates: readonly UsageCandidate[];
  nowMs: number;
  days: number;
  top?: number;
}): Usage {
  const { nowMs, days } = input;
  const today = Math.floor(nowMs / DAY_MS);
  const first = today - days + 1;
  const perDay = new Map<string, { injections: number; denials: number }>();
  for (let day = first; day <= today; day += 1) perDay.set(dayKey(day), { injections: 0, denials: 0 });

  const fires = new Map<string, number>();
  const lastFired = new Map<string, string>();
  const sessions = new Set<string>();
  let calls = 0;
  let injections = 0;
  let denials = 0;
  for (const record of input.audit) {
    const ms = Date.parse(record.time);
    if (!Number.isFinite(ms) || Math.floor(ms / DAY_MS) < first || ms > nowMs + DAY_MS) continue;
    calls += 1;
    sessions.add(record.session);
    const bucket = perDay.get(dayKey(Math.floor(ms / DAY_MS)));
    for (const item of [...record.lessons, ...record.denied]) {
      fires.set(item.id, (fires.get(item.id) ?? 0) + 1);
      if ((lastFired.get(item.id) ?? '') < record.time) lastFired.set(item.id, record.time);
    }
    injections += record.lessons.length;
    denials += record.denied.length;
    if (bucket) {
      bucket.injections += record.lessons.length;
      bucket.denials += record.denied.length;
    }
  }

  const votesOf = new Map<string, { helpful: number; notHelpful: number }>();
  let helpful = 0;
  let notHelpful = 0;
  for (const item of input.feedback) {
    const entry = votesOf.get(item.id) ?? { helpful: 0, notHelpful: 0 };
    if (item.helpful) {
      entry.helpful += 1;
      helpful += 1;
    } else {
      entry.notHelpful += 1;
      notHelpful += 1;
    }
    votesOf.set(item.id, entry);
  }

  const summaryOf = new Map(input.lessons.map((lesson) => [lesson.id, lesson.summary]));
  const topLessons = [...fires.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, input.top ?? 10)
    .map(([id, count]) => ({
      id,
      summary: summaryOf.get(id) ?? '(lesson no longer in the store)',
      fires: count,
      helpful: votesOf.get(id)?.helpful ?? 0,
      notHelpful: votesOf.get(id)?.notHelpful ?? 0,
      lastFired: lastFired.get(id) ?? null,
    }));

  const bySource = new Map<string, { project: number; user: number }>();
  const byTier = new Map<string, { active: number; superseded: number; archived: number }>();
  for (const lesson of input.lessons) {
    const source = bySource.get(lesson.source) ?? { project: 0, user: 0 };
    if (lesson.tier === 'user') source.user += 1;
    else source.project += 1;
    bySource.set(lesson.source, source);
    const tier = byTier.get(lesson.tier) ?? { active: 0, superseded: 0, archived: 0 };
    if (lesson.status === 'active' || lesson.status === 'superseded' || lesson.status === 'archived')
      tier[lesson.status] += 1;
    byTier.set(lesson.tier, tier);
  }
  const candidateSources = new Map<string, number>();
  for (const candidate of input.candidates) {
    const agents = candidate.agents.length > 0 ? candidate.agents : ['unknown'];
    for (const agent of agents) candidateSources.set(agent, (candidateSources.get(agent) ?? 0) + 1);
  }

  return {
    days,
    totals: { calls, injections, denials, sessions: sessions.size, lessonsFired: fires.size },
    injectionsPerDay: [...perDay.entries()].map(([day, counts]) => ({ day, ...counts })),
    topLessons,
    fires: Object.fromEntries(fires),
    helpful: {
      helpful,
      notHelpful,
      ratio: helpful + notHelpful === 0 ? null : helpful / (helpful + notHelpful),
    },
    lessonsBySource: [...bySource.entries()]
      .map(([source, counts]) => ({ source, ...counts }))
      .sort((a, b) => b.project + b.user - (a.project + a.user)),
    lessonsByTier: [...byTier.entries()].map(([tier, counts]) => ({ tier, ...counts })),
    candidatesBySource: [...candidateSources.entries()]
      .map(([source, count]) => ({ source, count }))
      .sort((a, b) => b.count - a.count),
  };
}

/** Where a lesson came from, from its provenance fields. */
export function lessonSource(lesson: { contentHash?: string; createdBy?: string }): string {
  if (lesson.contentHash !== undefined) return 'capture';
  if (lesson.createdBy === undefined || lesson.createdBy === '') return 'manual';
  if (lesson.createdBy === 'lore scan') return 'capture';
  if (lesson.createdBy.startsWith('lore ')) return lesson.createdBy.slice(5);
  return 'manual';
}

function dayKey(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}
