/**
 * What `lore candidates` and `lore review` do to a candidate: find it in either tier, approve it
 * (it becomes a real lesson through the normal add path, with its provenance), or reject it (its
 * pattern is remembered and never proposed again).
 */
import { candidateHashes, compareCandidates } from '../../core/capture/merge-candidate.js';
import type { CandidateRecord } from '../../core/capture/merge-candidate.js';
import type { Category, Classifier, LessonSeverity, ScopeClass, Tier } from '../../core/lesson/schema.js';
import { LoreError } from '../../core/errors.js';
import { HOSTS } from '../../core/inject/types.js';
import type { Host } from '../../core/inject/types.js';
import { openCandidateStore, pickCandidate } from './candidate-store.js';
import type { BrokenCandidate, CandidateStore, StoredCandidate } from './candidate-store.js';
import { addLesson, author } from '../lessons/lesson-writes.js';
import type { LessonDraft, ResolvedLesson } from '../lessons/lesson-writes.js';
import { initTier } from '../workspace/init-tier.js';
import type { Workspace } from '../workspace/workspace.js';

export type FoundCandidate = StoredCandidate & { tier: Tier; store: CandidateStore };

export function candidateStores(ws: Workspace): { tier: Tier; store: CandidateStore }[] {
  return ws.tiers.map((tierStore) => ({ tier: tierStore.tier, store: openCandidateStore(tierStore.layout) }));
}

export function listCandidates(ws: Workspace): FoundCandidate[] {
  return surveyCandidates(ws).candidates;
}

/**
 * Every tier's candidates, and the candidate files that cannot serve, with why (`lore candidates
 * list` shows both), from one read of each file.
 */
export function surveyCandidates(ws: Workspace): {
  candidates: FoundCandidate[];
  broken: (BrokenCandidate & { tier: Tier })[];
} {
  const candidates: FoundCandidate[] = [];
  const broken: (BrokenCandidate & { tier: Tier })[] = [];
  for (const { tier, store } of candidateStores(ws)) {
    const found = store.survey();
    candidates.push(...found.candidates.map((c) => ({ ...c, tier, store })));
    broken.push(...found.broken.map((c) => ({ ...c, tier })));
  }
  return { candidates: candidates.sort((a, b) => compareCandidates(a.record, b.record)), broken };
}

export function findCandidate(ws: Workspace, ref: string): FoundCandidate {
  const survey = surveyCandidates(ws);
  try {
    return pickCandidate(ref, survey.candidates);
  } catch (error) {
    // not among the usable ones: a broken file of that id is named, with what is wrong with it
    const wanted = ref.trim().toLowerCase();
    const broken = survey.broken.filter((c) => wanted !== '' && c.id.startsWith(wanted));
    if (!(error instanceof LoreError) || error.code !== 'not-found' || broken.length !== 1) throw error;
    const found = broken[0] as BrokenCandidate;
    throw new LoreError('invalid', `candidate ${found.id} cannot be used: ${found.problem}`, {
      hint: `fix ${ws.displayPath(found.file)}${found.line !== undefined ? `:${found.line}` : ''}, or delete its folder`,
    });
  }
}

export type SettledCandidate = {
  id: string;
  /** The tier whose queue it was in (the lesson may live in another: `lore show` finds it). */
  store: Tier;
  decision: 'approved' | 'rejected';
  at: string;
  /** The lesson an approved candidate became. */
  lesson?: string;
};

/**
 * The candidate `ref` names among those already approved or rejected (their decisions record the
 * candidate's id), or undefined: `lore candidates show` of an approved one names its lesson.
 */
export function findSettledCandidate(ws: Workspace, ref: string): SettledCandidate | undefined {
  const wanted = ref.trim().toLowerCase();
  if (wanted === '') return undefined;
  const settled = new Map<string, SettledCandidate>();
  for (const { tier, store } of candidateStores(ws)) {
    for (const d of store.decisions().values()) {
      if (d.decision === 'held' || d.candidate === undefined || !d.candidate.startsWith(wanted)) continue;
      settled.set(d.candidate, {
        id: d.candidate,
        store: tier,
        decision: d.decision,
        at: d.at,
        ...(d.lesson !== undefined ? { lesson: d.lesson } : {}),
      });
    }
  }
  const matches = [...settled.values()];
  return matches.length === 1 ? matches[0] : undefined;
}

/** The lesson draft a candidate stands for; `edits` (from flags) win. */
export function draftOf(record: CandidateRecord, edits: LessonDraft): LessonDraft {
  const list = (key: string) => (Array.isArray(record[key]) ? (record[key] as string[]) : undefined);
  const text = (key: string) => (typeof record[key] === 'string' ? (record[key] as string) : undefined);
  const base: LessonDraft = {
    summary: record.summary,
    body: text('body'),
    mistake: text('mistake'),
    remediation: text('remediation'),
    // A distilled candidate (`lore distill`) carries COIA fields.
    context: text('context'),
    observation: text('observation'),
    implication: text('implication'),
    action: text('action'),
    tools: list('tools'),
    commands: list('commands'),
    paths: list('paths'),
    errors: list('errors'),
    tags: list('tags'),
    stack: list('stack'),
    agents: list('agents')?.filter((agent): agent is Host => (HOSTS as readonly string[]).includes(agent)),
    category: text('category') as Category | undefined,
    severity: text('severity') as LessonSeverity | undefined,
    priority: record.priority,
    confidence: record.confidence,
  };
  const out: LessonDraft = {};
  for (const [key, value] of Object.entries({ ...base, ...edits })) {
    if (value !== undefined) (out as Record<string, unknown>)[key] = value;
  }
  out.needsReview = false;
  return out;
}

export type Placement = {
  tier: Tier;
  universal: boolean;
  classifiedBy: Classifier | undefined;
  /** Why it goes there, for people. */
  reason: string;
};

/**
 * Where an approved candidate goes: the tier a person asked for; else where capture classified it
 * (a library lesson to the user tier, a process lesson to the user tier marked universal, a
 * project lesson to the project it was found in); else, for candidates of older scans, where the
 * candidate is stored. A project lesson found in another repository (stored in the user tier's
 * queue) stays in the user tier: there is no better place for it here.
 */
export function placeCandidate(ws: Workspace, found: FoundCandidate, requested?: ScopeClass): Placement {
  if (requested !== undefined) {
    return {
      tier: requested === 'project' ? 'project' : 'user',
      universal: requested === 'universal',
      classifiedBy: 'human',
      reason: `asked for ${requested}`,
    };
  }
  const scope = found.record.capture.scope;
  const reason = found.record.capture.scopeReason ?? '';
  if (scope === 'universal' || scope === 'user') {
    return { tier: 'user', universal: scope === 'universal', classifiedBy: 'capture', reason };
  }
  if (scope === 'project') {
    const tier = found.tier === 'project' && ws.project !== undefined ? 'project' : 'user';
    return {
      tier,
      universal: false,
      classifiedBy: 'capture',
      reason:
        tier === 'project' ? reason : `${reason}; found in another repository, so kept in the user tier`,
    };
  }
  return {
    tier: found.tier,
    universal: false,
    classifiedBy: undefined,
    reason: 'where the candidate was found',
  };
}

export async function approveCandidate(
  ws: Workspace,
  found: FoundCandidate,
  edits: LessonDraft,
  options: { tier?: ScopeClass; nowMs: number; env: NodeJS.ProcessEnv },
): Promise<ResolvedLesson & { placement: Placement }> {
  return found.store.settleAsync(found.id, () => approveFound(ws, found, edits, options));
}

async function approveFound(
  ws: Workspace,
  found: FoundCandidate,
  edits: LessonDraft,
  options: { tier?: ScopeClass; nowMs: number; env: NodeJS.ProcessEnv },
): Promise<ResolvedLesson & { placement: Placement }> {
  const placement = placeCandidate(ws, found, options.tier);
  const tier = placement.tier;
  if (tier === 'user' && !ws.user.exists()) initTier(ws.user.layout);
  const record = found.record;
  const added = await addLesson(ws, draftOf(record, edits), {
    tier,
    nowMs: options.nowMs,
    createdBy: author(options.env) ?? 'lore scan',
    placement: {
      universal: placement.universal,
      ...(placement.classifiedBy ? { classifiedBy: placement.classifiedBy } : {}),
    },
    provenance: {
      sourceSessions: record.sourceSessions,
      occurrences: record.occurrences,
      contentHash: record.contentHash,
      evidence: record.sourceSessions.slice(0, 10).map((ref) => ({ kind: 'session' as const, ref })),
    },
    // Decided the moment the lesson exists, not after the index and manifest updates that follow:
    // an approval killed during those left the candidate in the queue, and approving it again
    // made a second lesson.
    onCreated: (id) => {
      // Every hash it stands for (a heuristic find a block took over too): none is proposed again.
      for (const hash of candidateHashes(record))
        found.store.decide({
          hash,
          decision: 'approved',
          at: new Date(options.nowMs).toISOString(),
          lesson: id,
          candidate: found.id,
        });
      found.store.remove(found.id);
    },
  });
  return { ...added, placement };
}

export function rejectCandidate(found: FoundCandidate, nowMs: number): void {
  found.store.settle(found.id, () => {
    for (const hash of candidateHashes(found.record))
      found.store.decide({
        hash,
        decision: 'rejected',
        at: new Date(nowMs).toISOString(),
        candidate: found.id,
      });
    found.store.remove(found.id);
  });
}
