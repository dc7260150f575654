/**
 * The API's routes. Each translates a request into the same store calls the CLI makes
 * (lesson-writes, lesson-index, candidate-actions, feedback, explain-call, audit-read) and their
 * result into JSON, and nothing more.
 */
import { lessonSource, summarizeUsage } from '../../core/analytics/summarize-usage.js';
import { outcomesPerWeek } from '../../core/analytics/summarize-outcomes.js';
import { listedCandidateJson } from '../../core/capture/candidate-json.js';
import { distillComparison } from '../../core/distill/distill-comparison.js';
import { OWN_TIERS, STATUSES, TIERS } from '../../core/lesson/constants.js';
import { HOOK_EVENTS } from '../../core/inject/types.js';
import { toRepoPath } from '../../core/match/repo-path.js';
import { summarizeVotes } from '../../core/rank/votes.js';
import { readAuditLog } from '../../store/lessons/audit-read.js';
import { listHeldLessons } from '../../store/lessons/held-lessons.js';
import { openBreadthChecker, tooBroadError } from '../../store/breadth/check-draft.js';
import { updatedTrigger } from '../../core/breadth/check-breadth.js';
import type { Breadth, BreadthTrigger } from '../../core/breadth/check-breadth.js';
import {
  approveCandidate,
  draftOf,
  findCandidate,
  listCandidates,
  rejectCandidate,
} from '../../store/candidates/candidate-actions.js';
import { explainCall } from '../../store/inject/explain-call.js';
import type { ExplainRequest } from '../../store/inject/explain-call.js';
import { appendFeedback, readFeedback } from '../../store/lessons/feedback.js';
import { readLessonCommits } from '../../store/lessons/read-lesson-commits.js';
import { readLessonMeasures } from '../../store/lessons/lesson-measures.js';
import { readOutcomesIn } from '../../store/analytics/read-outcomes.js';
import { readLastReplay, REPLAY_HINT } from '../../store/replay/read-last-replay.js';
import { initTier } from '../../store/workspace/init-tier.js';
import type { ListedLesson } from '../../store/index/lesson-index.js';
import { countNeedsReview, countSearchMatches } from '../../store/index/search-query.js';
import { countListed } from '../../store/index/list-query.js';
import {
  addLesson,
  author,
  resolveLesson,
  setStatus,
  supersedeLesson,
  updateLesson,
  upvoteLesson,
} from '../../store/lessons/lesson-writes.js';
import type { Workspace } from '../../store/workspace/workspace.js';
import { HttpError } from './http-error.js';
import { openApiDocument } from './openapi.js';
import {
  changedSince,
  choiceParam,
  draftFromBody,
  fromCoiaBody,
  intParam,
  numberParam,
  parseJsonBody,
  stringField,
} from './request-body.js';
import type { AppRequest } from './app-types.js';
// What the dashboard reads (web/src imports these types): each body below must satisfy its type.
import type {
  Analytics,
  ApprovedCandidate,
  CandidateList,
  CreatedLesson,
  HeldLessonList,
  LessonDetail,
  LessonJson,
  LessonList,
  LessonStats,
  RelatedLesson,
  LastReplayJson,
  ServerStatus,
} from './api-types.js';

export type RouteContext = {
  request: AppRequest;
  params: Record<string, string>;
  /** Opens the workspace (once per request) with its index refreshed. */
  workspace(): Promise<Workspace>;
  nowMs: number;
  env: NodeJS.ProcessEnv;
  /** Shown by GET /api/status: e.g. that this is the bundled sample corpus. */
  notice: string | undefined;
};

export type RouteResult = { status?: number; body: unknown };
export type Route = {
  method: string;
  path: string;
  /**
   * The query parameters the route reads; any other is a 400, so a filter the API does not have
   * (`minConfidence` misspelled, or another system's) is never silently ignored.
   */
  query: readonly string[];
  handler: (ctx: RouteContext) => Promise<RouteResult>;
};

/**
 * Keeps the lessons at or above `minConfidence=` (0-1) and in `domain=` (the tag `domain:<v>`, or
 * the domain an imported COIA learning had), when given: the Persistent Learnings Layer's filters.
 */
/** minConfidence and domain as a test of each lesson; `narrows` when either is given. */
function confidenceFilter(q: URLSearchParams): ((item: ListedLesson) => boolean) & { narrows: boolean } {
  const min = numberParam(q.get('minConfidence'), 'minConfidence', { min: 0, max: 1 });
  const domain = q.get('domain')?.trim().toLowerCase() || undefined;
  const inDomain = (item: ListedLesson) =>
    item.lesson.tags.includes(`domain:${domain}`) ||
    String(item.lesson.origin?.fields?.domain ?? '').toLowerCase() === domain;
  const test = (item: ListedLesson) =>
    (min === undefined || item.lesson.confidence >= min) && (domain === undefined || inDomain(item));
  return Object.assign(test, { narrows: min !== undefined || domain !== undefined });
}

function lessonJson(ws: Workspace, item: ListedLesson): LessonJson {
  return {
    ...item.lesson,
    file: ws.displayPath(item.file),
    votes: { count: item.votes.count, lastVotedAt: item.votes.lastVotedAt, score: item.voteScore },
    matchedBy: item.matchedBy,
  };
}

function body(ctx: RouteContext): Record<string, unknown> {
  return parseJsonBody(ctx.request.body);
}

async function settle(ws: Workspace): Promise<void> {
  await ws.index.refresh().catch(() => undefined);
}

async function lessonStats(ws: Workspace): Promise<LessonStats> {
  const stats = await ws.index.stats();
  // counted in SQLite: listing every lesson to count these took ~300 ms a page at 10,000 lessons
  const needsReview = await ws.index.query(countNeedsReview);
  return {
    total: stats.total,
    active: stats.byStatus.active ?? 0,
    superseded: stats.byStatus.superseded ?? 0,
    archived: stats.byStatus.archived ?? 0,
    needsReview,
    lastIndexed: stats.indexedAt,
  };
}

const listLessons: Route['handler'] = async (ctx) => {
  const q = ctx.request.query;
  const ws = await ctx.workspace();
  const status = choiceParam(q.get('status'), 'status', [...STATUSES, 'any'] as const) ?? 'active';
  const tier = choiceParam(q.get('tier'), 'tier', TIERS);
  const limit = intParam(q.get('limit'), 'limit', { min: 1, max: 1000 }) ?? 100;
  const offset = intParam(q.get('offset'), 'offset', { min: 0, max: 1_000_000 }) ?? 0;
  const rawPath = q.get('path');
  const confident = confidenceFilter(q);
  const filter = {
    status,
    tags: q.getAll('tag').filter((t) => t !== ''),
    tools: q.getAll('tool').filter((t) => t !== ''),
    ...(tier ? { tier } : {}),
    ...(rawPath ? { path: toRepoPath(rawPath) } : {}),
  };
  const text = q.get('q')?.trim() ?? '';
  const hybrid = text !== '' && isHybrid(q.get('hybrid'));
  // A lexical search whose filters SQLite holds whole ranks only the page (the first offset +
  // limit), and counts the rest in SQLite: at 10,000 lessons, ranking all of the 5,000 matches of
  // a common word took ~350 ms, the page and the count ~100 ms.
  if (
    text !== '' &&
    !hybrid &&
    filter.tools.length === 0 &&
    filter.path === undefined &&
    !confident.narrows
  ) {
    const page = await ws.index.search(
      text,
      { ...filter, limit: offset + limit },
      ws.config.search.weights,
      ctx.nowMs,
      ws.halfLifeDays,
    );
    const total = await ws.index.query((index) => countSearchMatches(index, text, filter));
    return { body: await lessonPage(ws, page.slice(offset), total, offset, limit) };
  }
  // The plain list (the dashboard's first page) likewise: ranked on the index's columns, records
  // parsed for the page only, the rest counted in SQLite. Parsing all 10,000 records of a store to
  // show 100 of them took ~300 ms a page.
  if (text === '' && filter.tools.length === 0 && filter.path === undefined && !confident.narrows) {
    const page = await ws.index.list(filter, ctx.nowMs, ws.halfLifeDays, offset + limit);
    const total = await ws.index.query((index) => countListed(index, filter));
    return { body: await lessonPage(ws, page.slice(offset), total, offset, limit) };
  }
  // Otherwise a search ranks every match, not only the page asked for: `total` counts them all,
  // and minConfidence (or a tool or path filter, which act in JS) picks from all of them before
  // the page is cut.
  const every = Math.max(1, (await ws.index.stats()).total);
  const meaning = hybrid
    ? await (
        await import('../../store/embed/hybrid-lessons.js')
      ).searchLessonsWith(ws, ctx.env, {
        query: text,
        filter: { ...filter, limit: every },
        nowMs: ctx.nowMs,
        hybrid: true,
      })
    : undefined;
  const found = (
    meaning?.results ??
    (text === ''
      ? await ws.index.list(filter, ctx.nowMs, ws.halfLifeDays)
      : await ws.index.search(
          text,
          { ...filter, limit: every },
          ws.config.search.weights,
          ctx.nowMs,
          ws.halfLifeDays,
        ))
  ).filter(confident);
  const notice = meaning?.fallback ?? meaning?.unembedded?.note;
  return { body: await lessonPage(ws, found.slice(offset), found.length, offset, limit, notice) };
};

/** One page of the lesson list: `items` from the first of `from`, `total` counted by the caller. */
async function lessonPage(
  ws: Workspace,
  from: readonly ListedLesson[],
  total: number,
  offset: number,
  limit: number,
  notice?: string,
): Promise<LessonList> {
  return {
    items: from.slice(0, limit).map((item) => lessonJson(ws, item)),
    total,
    offset,
    limit,
    stats: await lessonStats(ws),
    ...(notice === undefined ? {} : { notice }),
    problems: await ws.index.problems(),
  };
}

/** `hybrid=1` (or true): blend in meaning; anything but 0/1/true/false is a 400. */
function isHybrid(value: string | null): boolean {
  const hybrid = choiceParam(value, 'hybrid', ['1', 'true', '0', 'false'] as const);
  return hybrid === '1' || hybrid === 'true';
}

const search: Route['handler'] = async (ctx) => {
  const q = ctx.request.query;
  const text = q.get('q')?.trim() ?? '';
  if (text === '') throw new HttpError(400, 'missing-parameter', 'search needs q=WORDS');
  const ws = await ctx.workspace();
  const status = choiceParam(q.get('status'), 'status', [...STATUSES, 'any'] as const) ?? 'active';
  const tier = choiceParam(q.get('tier'), 'tier', TIERS);
  const limit = intParam(q.get('limit'), 'limit', { min: 1, max: 1000 }) ?? ws.config.search.limit;
  const confident = confidenceFilter(q);
  const filter = { status, tags: q.getAll('tag'), ...(tier ? { tier } : {}), limit };
  // the embedding code loads only for hybrid=1
  const found = isHybrid(q.get('hybrid'))
    ? await (
        await import('../../store/embed/hybrid-lessons.js')
      ).searchLessonsWith(ws, ctx.env, { query: text, filter, nowMs: ctx.nowMs, hybrid: true })
    : undefined;
  const results = (
    found?.results ??
    (await ws.index.search(text, filter, ws.config.search.weights, ctx.nowMs, ws.halfLifeDays))
  ).filter(confident);
  return {
    body: {
      query: text,
      ...(found === undefined ? {} : { mode: found.mode }),
      ...(found?.fallback === undefined ? {} : { fallback: found.fallback }),
      ...(found?.unembedded === undefined ? {} : { unembedded: found.unembedded.note }),
      results: results.map((r) => ({ ...lessonJson(ws, r), score: Number(r.relevance.toFixed(6)) })),
    },
  };
};

const showLesson: Route['handler'] = async (ctx) => {
  const ws = await ctx.workspace();
  const target = await resolveLesson(ws, ctx.params.id ?? '');
  const { votes } = ws.store(target.tier).readVotes(target.id);
  const feedback = readFeedback(ws, target);
  const fired = readAuditLog(ws.cacheDir)
    .filter((record) => [...record.lessons, ...record.denied].some((item) => item.id === target.id))
    .map((record) => {
      const item = [...record.lessons, ...record.denied].find((i) => i.id === target.id);
      return {
        time: record.time,
        host: record.host,
        event: record.event,
        tool: record.tool,
        session: record.session,
        denied: record.denied.some((i) => i.id === target.id),
        matched_by: item?.matched_by ?? [],
      };
    });
  const lesson = target.lesson;
  const measures = readLessonMeasures(ws, target);
  const history: { at: string; kind: string; detail: string }[] = [
    {
      at: lesson.createdAt,
      kind: 'created',
      detail: `created${lesson.createdBy ? ` by ${lesson.createdBy}` : ''}`,
    },
    ...(lesson.updatedAt !== lesson.createdAt
      ? [{ at: lesson.updatedAt, kind: 'updated', detail: `last changed (status ${lesson.status})` }]
      : []),
    ...votes.map((vote) => ({
      at: vote.at,
      kind: 'vote',
      detail: `upvoted by ${vote.model} for ${vote.task}`,
    })),
    ...feedback.map((item) => ({
      at: item.at,
      kind: 'feedback',
      detail: `${item.helpful ? 'helpful' : 'not helpful'} for ${item.task}`,
    })),
    ...(await readLessonCommits(target.file)).map((c) => ({
      at: c.at,
      kind: 'commit',
      detail: `${c.commit} ${c.author}: ${c.subject}`,
    })),
  ].sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
  const related = (ids: readonly string[]): Promise<RelatedLesson[]> =>
    Promise.all(
      ids.map((id) =>
        resolveLesson(ws, id).then(
          (found): RelatedLesson => ({
            id: found.id,
            summary: found.lesson.summary,
            status: found.lesson.status,
          }),
          (): RelatedLesson => ({ id, summary: '(not found)', status: 'missing' }),
        ),
      ),
    );
  return {
    body: {
      lesson,
      tier: target.tier,
      file: ws.displayPath(target.file),
      source: lessonSource(lesson),
      votes: { ...summarizeVotes(votes, ctx.nowMs, ws.halfLifeDays), votes },
      feedback: {
        helpful: feedback.filter((f) => f.helpful).length,
        notHelpful: feedback.filter((f) => !f.helpful).length,
        items: feedback,
      },
      fires: { count: fired.length, recent: fired.slice(-20).reverse() },
      history,
      supersededBy: lesson.supersededBy ? ((await related([lesson.supersededBy]))[0] ?? null) : null,
      supersedes: await related(lesson.supersedes),
      replay: measures.replay,
      lastReplayAt: measures.lastReplayAt,
      outcomes: measures.outcomes,
      problems: measures.problems,
    } satisfies LessonDetail,
  };
};

/** `force: true` in a body: save a trigger the breadth check finds too broad. */
function forceOf(input: Record<string, unknown>): boolean {
  const force = input.force;
  if (force !== undefined && typeof force !== 'boolean')
    throw new HttpError(400, 'bad-field', 'force must be true or false');
  return force === true;
}

/** The breadth check of a trigger about to be saved: a too-broad one is a 409 `too-broad` unless forced. */
function checkTrigger(ws: Workspace, trigger: BreadthTrigger, force: boolean): Breadth {
  const breadth = openBreadthChecker(ws)(trigger);
  if (breadth.broad && !force) {
    const error = tooBroadError(breadth, 'send the same request with "force": true');
    throw new HttpError(409, 'too-broad', error.message, {
      ...(error.hint ? { hint: error.hint } : {}),
      details: { breadth },
    });
  }
  return breadth;
}

const createLesson: Route['handler'] = async (ctx) => {
  const input = fromCoiaBody(body(ctx));
  const ws = await ctx.workspace();
  const tier = choiceParam(stringField(input, 'tier'), 'tier', TIERS) ?? (ws.project ? 'project' : 'user');
  const draft = draftFromBody(input, ['tier', 'force']);
  const breadth = checkTrigger(ws, draft, forceOf(input));
  if (tier === 'user' && !ws.user.exists()) initTier(ws.user.layout);
  const added = await addLesson(ws, draft, { tier, nowMs: ctx.nowMs, createdBy: author(ctx.env) });
  await settle(ws);
  return {
    status: 201,
    body: {
      id: added.id,
      slug: added.lesson.slug,
      tier,
      file: ws.displayPath(added.file),
      lesson: added.lesson,
      breadth,
    } satisfies CreatedLesson,
  };
};

const patchLesson: Route['handler'] = async (ctx) => {
  const input = body(ctx);
  const ws = await ctx.workspace();
  const id = ctx.params.id ?? '';
  const status = choiceParam(stringField(input, 'status'), 'status', ['active', 'archived'] as const);
  const unset = input.unset;
  if (unset !== undefined && (!Array.isArray(unset) || !unset.every((f) => typeof f === 'string')))
    throw new HttpError(400, 'bad-field', 'unset must be a list of field names');
  const draft = draftFromBody(input, ['status', 'unset', 'force', 'ifUnchanged']);
  let result = await resolveLesson(ws, id);
  // checked here for a quick answer, and again under the lesson lock by the first write: a
  // `lore update` from another process can land between this read and that write
  const verify = (lesson: Record<string, unknown>): void => {
    const changed = changedSince(input.ifUnchanged, lesson);
    if (changed.length === 0) return;
    const message = `the lesson's ${changed.join(', ')} changed since this edit began`;
    throw new HttpError(409, 'conflict', message, {
      hint: 'reload the lesson to see the change, then make yours again',
    });
  };
  verify(result.lesson);
  const unsetFields = (unset as string[] | undefined) ?? [];
  let breadth: Breadth | undefined;
  const trigger = updatedTrigger(result.lesson, draft, unsetFields);
  if (trigger !== undefined) breadth = checkTrigger(ws, trigger, forceOf(input));
  const edits = Object.keys(draft).length > 0 || unsetFields.length > 0;
  if (edits) result = await updateLesson(ws, id, draft, { nowMs: ctx.nowMs, unset: unsetFields, verify });
  // after an edit, ifUnchanged was checked by it (the edited fields no longer hold those values)
  if (status !== undefined)
    result = await setStatus(ws, result.id, status, ctx.nowMs, edits ? undefined : verify);
  await settle(ws);
  return {
    body: {
      id: result.id,
      tier: result.tier,
      file: ws.displayPath(result.file),
      lesson: result.lesson,
      ...(breadth ? { breadth } : {}),
    },
  };
};

const heldLessons: Route['handler'] = async (ctx) => {
  const ws = await ctx.workspace();
  return { body: (await listHeldLessons(ws, ctx.nowMs)) satisfies HeldLessonList };
};

const archiveLesson: Route['handler'] = async (ctx) => {
  const ws = await ctx.workspace();
  const result = await setStatus(ws, ctx.params.id ?? '', 'archived', ctx.nowMs);
  await settle(ws);
  return { body: { id: result.id, changed: result.changed, lesson: result.lesson } };
};

const supersede: Route['handler'] = async (ctx) => {
  const input = body(ctx);
  const by = stringField(input, 'by', true) ?? '';
  const ws = await ctx.workspace();
  const { old, replacement } = await supersedeLesson(ws, ctx.params.id ?? '', by, ctx.nowMs);
  await settle(ws);
  return { body: { old: old.lesson, replacement: replacement.lesson } };
};

const feedback: Route['handler'] = async (ctx) => {
  const input = body(ctx);
  if (typeof input.helpful !== 'boolean')
    throw new HttpError(400, 'bad-field', 'helpful must be true or false');
  const task = stringField(input, 'taskId') ?? stringField(input, 'task') ?? '';
  const model = stringField(input, 'model');
  const ws = await ctx.workspace();
  const at = new Date(ctx.nowMs).toISOString();
  const target = await appendFeedback(ws, ctx.params.id ?? '', {
    helpful: input.helpful,
    task,
    at,
    ...(model ? { model } : {}),
  });
  const all = readFeedback(ws, target);
  return {
    status: 201,
    body: {
      id: target.id,
      recorded: { helpful: input.helpful, task: task.trim(), at },
      helpful: all.filter((f) => f.helpful).length,
      notHelpful: all.filter((f) => !f.helpful).length,
    },
  };
};

const upvote: Route['handler'] = async (ctx) => {
  const input = body(ctx);
  const task = stringField(input, 'task') ?? stringField(input, 'taskId') ?? '';
  const model = stringField(input, 'model') ?? 'human';
  const ws = await ctx.workspace();
  const at = new Date(ctx.nowMs).toISOString();
  const { target, recorded } = await upvoteLesson(ws, ctx.params.id ?? '', {
    model: model.trim(),
    task: task.trim(),
    at,
  });
  await settle(ws);
  const summary = summarizeVotes(
    ws.store(target.tier).readVotes(target.id).votes,
    ctx.nowMs,
    ws.halfLifeDays,
  );
  return { body: { id: target.id, recorded, votes: summary } };
};

/** A lesson held by its outcomes, kept by a person (as `lore review --keep`): injected again. */
const keepLesson: Route['handler'] = async (ctx) => {
  const ws = await ctx.workspace();
  const { keepHeldLesson } = await import('../../store/feedback/held-lessons.js');
  const kept = await keepHeldLesson(ws, ctx.params.id ?? '', ctx.nowMs);
  await settle(ws);
  return { body: kept };
};

const candidates: Route['handler'] = async (ctx) => {
  const ws = await ctx.workspace();
  const { heldLessons, proposedGuards } = await import('../../store/feedback/held-lessons.js');
  const held = await heldLessons(ws, ctx.nowMs);
  const guardProposals = await proposedGuards(ws, ctx.nowMs);
  return {
    body: {
      candidates: listCandidates(ws).map((c) => ({
        ...listedCandidateJson(c.record, c.tier, ws.displayPath(c.file)),
        agents: c.record.capture.agents,
        mistake: typeof c.record.mistake === 'string' ? c.record.mistake : null,
        remediation: typeof c.record.remediation === 'string' ? c.record.remediation : null,
        tools: Array.isArray(c.record.tools) ? c.record.tools : [],
        commands: Array.isArray(c.record.commands) ? c.record.commands : [],
        paths: Array.isArray(c.record.paths) ? c.record.paths : [],
        errors: Array.isArray(c.record.errors) ? c.record.errors : [],
        tags: Array.isArray(c.record.tags) ? c.record.tags : [],
        lastSeen: c.record.capture.lastSeen,
        distill: distillComparison(c.record),
      })),
      held,
      guardProposals,
    } satisfies CandidateList,
  };
};

const showCandidate: Route['handler'] = async (ctx) => {
  const ws = await ctx.workspace();
  const found = findCandidate(ws, ctx.params.id ?? '');
  return {
    body: {
      candidate: listedCandidateJson(found.record, found.tier, ws.displayPath(found.file)),
      record: found.record,
    },
  };
};

const approve: Route['handler'] = async (ctx) => {
  const input = body(ctx);
  const tier = choiceParam(stringField(input, 'tier'), 'tier', OWN_TIERS);
  const edits = draftFromBody(input, ['tier', 'force']);
  const ws = await ctx.workspace();
  const found = findCandidate(ws, ctx.params.id ?? '');
  const breadth = checkTrigger(ws, draftOf(found.record, edits), forceOf(input));
  const added = await approveCandidate(ws, found, edits, {
    ...(tier ? { tier } : {}),
    nowMs: ctx.nowMs,
    env: ctx.env,
  });
  await settle(ws);
  return {
    status: 201,
    body: {
      approved: found.id,
      id: added.id,
      slug: added.lesson.slug,
      tier: added.tier,
      file: ws.displayPath(added.file),
      lesson: added.lesson,
      breadth,
    } satisfies ApprovedCandidate,
  };
};

const reject: Route['handler'] = async (ctx) => {
  const ws = await ctx.workspace();
  const found = findCandidate(ws, ctx.params.id ?? '');
  rejectCandidate(found, ctx.nowMs);
  return { body: { rejected: found.id, contentHash: found.record.contentHash } };
};

const analytics: Route['handler'] = async (ctx) => {
  const days = intParam(ctx.request.query.get('days'), 'days', { min: 1, max: 366 }) ?? 30;
  const weeks = intParam(ctx.request.query.get('weeks'), 'weeks', { min: 1, max: 104 }) ?? 12;
  const ws = await ctx.workspace();
  const lessons = await ws.index.list({ status: 'any' }, ctx.nowMs, ws.halfLifeDays);
  const feedbackItems = lessons.flatMap((item) =>
    readFeedback(ws, { tier: item.lesson.tier ?? 'project', id: item.lesson.id }).map((f) => ({
      id: item.lesson.id,
      helpful: f.helpful,
      at: f.at,
    })),
  );
  const usage = summarizeUsage({
    audit: readAuditLog(ws.cacheDir),
    lessons: lessons.map((item) => ({
      id: item.lesson.id,
      tier: item.lesson.tier ?? 'project',
      status: item.lesson.status,
      summary: item.lesson.summary,
      source: lessonSource(item.lesson),
    })),
    feedback: feedbackItems,
    candidates: listCandidates(ws).map((c) => ({
      agents: c.record.capture.agents,
      kind: c.record.capture.kind,
    })),
    nowMs: ctx.nowMs,
    days,
  });
  // outcome-linked feedback (`lore scan`): "mistakes prevented" and "injections that were noise" per week
  // the outcomes judged from this workspace's audit log (the one the numbers above come from)
  const outcomes = readOutcomesIn([ws.cacheDir], (path) => ws.displayPath(path));
  return {
    body: {
      ...usage,
      weeks,
      outcomesPerWeek: outcomesPerWeek(outcomes.records, { nowMs: ctx.nowMs, weeks }),
      outcomeProblems: outcomes.problems,
    } satisfies Analytics,
  };
};

const lastReplay: Route['handler'] = async (ctx) => {
  const ws = await ctx.workspace();
  const { last, problems } = readLastReplay(ws);
  if (last === null) {
    const broken = problems[0];
    if (broken)
      throw new HttpError(422, 'bad-replay', `${broken.file}: ${broken.message}`, { hint: REPLAY_HINT });
    throw new HttpError(404, 'no-replay', 'no replay yet', { hint: REPLAY_HINT });
  }
  return { body: { ...last.report, file: last.file, problems } satisfies LastReplayJson };
};

const explain: Route['handler'] = async (ctx) => {
  const q = ctx.request.query;
  const ws = await ctx.workspace();
  const request: ExplainRequest = {
    cwd: ws.projectRoot ?? ws.cwd,
    paths: q.getAll('path').filter((p) => p !== ''),
  };
  const event = choiceParam(q.get('event'), 'event', HOOK_EVENTS);
  const tool = q.get('tool') || undefined;
  const command = q.get('command') || undefined;
  const prompt = q.get('prompt') || undefined;
  const content = q.get('content') || undefined;
  if (content !== undefined) request.content = content;
  if (event) request.event = event;
  if (command !== undefined) request.command = command;
  if (prompt !== undefined) request.prompt = prompt;
  // A command without a tool is a Bash call; a path without one, an Edit.
  request.tool =
    tool ?? (command !== undefined ? 'Bash' : (request.paths?.length ?? 0) > 0 ? 'Edit' : undefined);
  if (request.tool === undefined) delete request.tool;
  return { body: await explainCall(ws, request, ctx.nowMs) };
};

const status: Route['handler'] = async (ctx) => {
  const ws = await ctx.workspace();
  return {
    body: {
      projectRoot: ws.projectRoot ?? null,
      userTier: ws.displayPath(ws.user.layout.dir),
      notice: ctx.notice ?? null,
      tiers: ws.tiers.map((t) => t.tier),
    } satisfies ServerStatus,
  };
};

export const ROUTES: readonly Route[] = [
  { method: 'GET', path: '/api/status', query: [], handler: status },
  {
    method: 'GET',
    path: '/api/lessons',
    query: [
      'q',
      'tag',
      'tool',
      'status',
      'tier',
      'path',
      'minConfidence',
      'domain',
      'limit',
      'offset',
      'hybrid',
    ],
    handler: listLessons,
  },
  { method: 'POST', path: '/api/lessons', query: [], handler: createLesson },
  { method: 'GET', path: '/api/lessons/:id', query: [], handler: showLesson },
  { method: 'PATCH', path: '/api/lessons/:id', query: [], handler: patchLesson },
  { method: 'DELETE', path: '/api/lessons/:id', query: [], handler: archiveLesson },
  { method: 'POST', path: '/api/lessons/:id/supersede', query: [], handler: supersede },
  { method: 'POST', path: '/api/lessons/:id/feedback', query: [], handler: feedback },
  { method: 'POST', path: '/api/lessons/:id/upvote', query: [], handler: upvote },
  { method: 'POST', path: '/api/lessons/:id/keep', query: [], handler: keepLesson },
  { method: 'GET', path: '/api/review/held', query: [], handler: heldLessons },
  {
    method: 'GET',
    path: '/api/search',
    query: ['q', 'tag', 'status', 'tier', 'minConfidence', 'domain', 'limit', 'hybrid'],
    handler: search,
  },
  { method: 'GET', path: '/api/candidates', query: [], handler: candidates },
  { method: 'GET', path: '/api/candidates/:id', query: [], handler: showCandidate },
  { method: 'POST', path: '/api/candidates/:id/approve', query: [], handler: approve },
  { method: 'POST', path: '/api/candidates/:id/reject', query: [], handler: reject },
  { method: 'GET', path: '/api/analytics', query: ['days', 'weeks'], handler: analytics },
  { method: 'GET', path: '/api/replay', query: [], handler: lastReplay },
  {
    method: 'GET',
    path: '/api/explain',
    query: ['tool', 'command', 'path', 'content', 'prompt', 'event'],
    handler: explain,
  },
  { method: 'GET', path: '/api/openapi.json', query: [], handler: async () => ({ body: openApiDocument() }) },
];
