/**
 * The lesson tools of `lore mcp`: search, list, show, add, update, supersede, upvote, feedback.
 * Each makes the store calls the CLI makes; answers about file paths carry the learnings sidecar
 * (src/store/inject/learnings-sidecar.ts).
 */
import type { z } from 'zod';
import type { Status, Tier } from '../../core/lesson/constants.js';
import { repoPathOf as repoPath } from '../../store/inject/learnings-sidecar.js';
import type { ListedLesson } from '../../store/index/lesson-index.js';
import type { QueryVector } from '../../store/embed/hybrid-lessons.js';
import type { McpDeps } from './create-mcp-server.js';
import type { McpSession } from './create-mcp-session.js';
import { defineTool } from './register-tools.js';
import type { AnyToolSpec } from './register-tools.js';
import {
  AddInput,
  FeedbackInput,
  FeedbackOutput,
  ListInput,
  ListOutput,
  SearchInput,
  SearchOutput,
  ShowInput,
  ShowOutput,
  SupersedeInput,
  SupersedeOutput,
  UpdateInput,
  UpvoteInput,
  UpvoteOutput,
  WriteOutput,
} from './tool-schemas.js';

/** Writes, votes and feedback load YAML and the lesson schema: only when a tool needs them. */
const writes = () => import('../../store/lessons/lesson-writes.js');
const feedbackStore = () => import('../../store/lessons/feedback.js');

type Hit = z.infer<ReturnType<typeof ListOutput>>['lessons'][number];
type Context = { deps: McpDeps; session: McpSession };

function toHit(item: ListedLesson): Hit {
  const { lesson } = item;
  return {
    id: lesson.id,
    slug: lesson.slug,
    summary: lesson.summary,
    tier: lesson.tier,
    status: lesson.status,
    type: lesson.type,
    category: lesson.category,
    severity: lesson.severity,
    priority: lesson.priority,
    confidence: lesson.confidence,
    tags: lesson.tags,
    paths: lesson.paths,
    votes: item.votes.count,
    matched_by: item.matchedBy,
  };
}

const search = ({ deps, session }: Context) =>
  defineTool({
    name: 'lore_search',
    description:
      "Search this repository's lessons (past mistakes and their fixes). Scope filters first (path glob, tags, tool, command regex), then BM25 over the query; ties by votes, priority, confidence, recency. Every result says why it matched (matched_by). With a path, the answer also carries `learnings` for it.",
    input: SearchInput,
    output: SearchOutput,
    // a hybrid search's query goes to the embedding endpoint outside the queue: a slow model
    // holds up this search only, not every other call
    prepare: async (args, ws) =>
      args.hybrid === true && (args.query?.trim() ?? '') !== ''
        ? (await import('../../store/embed/hybrid-lessons.js')).embedQuery(
            ws,
            deps.env,
            args.query?.trim() ?? '',
          )
        : undefined,
    async handler(args, ws, prepared) {
      const filter = {
        status: (args.status ?? 'active') as Status | 'any',
        tags: args.tags,
        tools: args.tool === undefined ? undefined : [args.tool],
        path: args.path === undefined ? undefined : (repoPath(ws, args.path) ?? args.path),
        command: args.command,
      };
      const limit = args.limit ?? ws.config.search.limit;
      const query = args.query?.trim() ?? '';
      // hybrid loads the embedding code only when asked for
      const hybrid =
        query !== '' && args.hybrid === true
          ? await (
              await import('../../store/embed/hybrid-lessons.js')
            ).searchLessonsWith(
              ws,
              deps.env,
              { query, filter: { ...filter, limit }, nowMs: deps.now(), hybrid: true },
              prepared as QueryVector | undefined,
            )
          : undefined;
      const results =
        query === ''
          ? (await ws.index.list(filter, deps.now(), ws.halfLifeDays, limit)).map((item) => ({
              ...toHit(item),
              score: 0,
            }))
          : (
              hybrid?.results ??
              (await ws.index.search(
                query,
                { ...filter, limit },
                ws.config.search.weights,
                deps.now(),
                ws.halfLifeDays,
              ))
            ).map((item) => ({ ...toHit(item), score: Number(item.relevance.toFixed(6)) }));
      // no path, no learnings: the sidecar answers [] without reading anything
      const learnings = await session.learningsFor(
        ws,
        args.path === undefined ? [] : [args.path],
        results.map((r) => r.id),
        'lore_search',
      );
      return {
        results,
        ...(hybrid === undefined ? {} : { mode: hybrid.mode }),
        ...(hybrid?.fallback === undefined ? {} : { fallback: hybrid.fallback }),
        learnings,
        hint:
          results.length === 0
            ? 'no lesson matched; try fewer words, drop a filter, or status "any"'
            : 'read one in full with lore_show {"id"}; after using one, call lore_feedback or say LEARNING_HELPFUL: <id>',
        // as `lore search --json`: a lesson file that does not load is missing from the results
        problems: await ws.index.problems(),
      };
    },
  });

const list = ({ deps, session }: Context) =>
  defineTool({
    name: 'lore_list',
    description:
      'List lessons filtered by status, tags, path (glob match), tool or tier, in rank order (votes, priority, confidence, recency). With a path, the answer also carries `learnings` for it.',
    input: ListInput,
    output: ListOutput,
    async handler(args, ws) {
      const listed = await ws.index.list(
        {
          status: (args.status ?? 'active') as Status | 'any',
          tags: args.tags,
          tools: args.tool === undefined ? undefined : [args.tool],
          tier: args.tier as Tier | undefined,
          path: args.path === undefined ? undefined : (repoPath(ws, args.path) ?? args.path),
        },
        deps.now(),
        ws.halfLifeDays,
      );
      const lessons = listed.slice(0, args.limit ?? 50).map(toHit);
      // no path, no learnings: the sidecar answers [] without reading anything
      const learnings = await session.learningsFor(
        ws,
        args.path === undefined ? [] : [args.path],
        lessons.map((l) => l.id),
        'lore_list',
      );
      return { lessons, total: listed.length, learnings, problems: await ws.index.problems() };
    },
  });

const show = ({ deps }: Context) =>
  defineTool({
    name: 'lore_show',
    description:
      'One lesson in full: the record (body, mistake, remediation, scope), its votes, feedback, how often it was injected, its figures in the last replay and the outcomes of its injections.',
    input: ShowInput,
    output: ShowOutput,
    async handler(args, ws) {
      const [{ resolveLesson }, { readLessonReport }, { readLessonMeasures }] = await Promise.all([
        writes(),
        import('../../store/lessons/lesson-report.js'),
        import('../../store/lessons/lesson-measures.js'),
      ]);
      const target = await resolveLesson(ws, args.id);
      const report = readLessonReport(ws, target, deps.now());
      const measures = readLessonMeasures(ws, target);
      return {
        lesson: report.lesson,
        file: report.file,
        votes: {
          count: report.votes.count,
          lastVotedAt: report.votes.lastVotedAt,
          score: report.votes.score,
        },
        feedback: report.feedback,
        times_injected: report.timesInjected,
        last_injected_at: report.lastInjectedAt,
        replay: measures.replay,
        last_replay_at: measures.lastReplayAt,
        outcomes: measures.outcomes,
        problems: [...report.problems, ...measures.problems],
      };
    },
  });

const add = ({ deps, session }: Context) =>
  defineTool({
    name: 'lore_add',
    description:
      'Add a lesson: a one-line summary the agent should read, and optionally its scope (paths, tools, commands, errors, tags) and details. lore allocates the id and returns it, with how often its trigger would have fired on recent calls; a trigger that broad (over 1% of them, under a third at its mistake) is refused unless "force": true.',
    input: AddInput,
    output: WriteOutput,
    async handler(args, ws) {
      const { tier: wanted, force, ...draft } = args;
      const [{ addLesson, author }, { initTier }, { requireNarrowTrigger }] = await Promise.all([
        writes(),
        import('../../store/workspace/init-tier.js'),
        import('../../store/breadth/check-draft.js'),
      ]);
      const breadth = requireNarrowTrigger(
        ws,
        draft,
        force === true,
        'call lore_add again with "force": true',
      );
      const tier: Tier = wanted ?? (ws.project ? 'project' : 'user');
      if (tier === 'user' && !ws.user.exists()) initTier(ws.user.layout);
      const added = await addLesson(ws, draft, {
        tier,
        nowMs: deps.now(),
        createdBy: author(deps.env) ?? 'mcp',
      });
      session.wrote();
      return { id: added.id, tier, file: ws.displayPath(added.file), lesson: added.lesson, breadth };
    },
  });

const update = ({ deps, session }: Context) =>
  defineTool({
    name: 'lore_update',
    description: 'Change fields of a lesson (any lore_add field); `unset` removes optional fields.',
    input: UpdateInput,
    output: WriteOutput,
    async handler(args, ws) {
      const { id, unset, force, ...draft } = args;
      const [{ updateLesson }, { requireNarrowUpdate }] = await Promise.all([
        writes(),
        import('../../store/breadth/check-draft.js'),
      ]);
      const breadth = await requireNarrowUpdate(
        ws,
        id,
        { draft, unset: unset ?? [] },
        force === true,
        'call lore_update again with "force": true',
      );
      const updated = await updateLesson(ws, id, draft, { nowMs: deps.now(), unset });
      session.wrote();
      return {
        id: updated.id,
        tier: updated.tier,
        file: ws.displayPath(updated.file),
        lesson: updated.lesson,
        ...(breadth === undefined ? {} : { breadth }),
      };
    },
  });

const supersede = ({ deps, session }: Context) =>
  defineTool({
    name: 'lore_supersede',
    description:
      'Replace lesson `id` by the active lesson `by`: the old one becomes superseded and is never injected again; both files change together.',
    input: SupersedeInput,
    output: SupersedeOutput,
    async handler(args, ws) {
      const { supersedeLesson } = await writes();
      const { old, replacement } = await supersedeLesson(ws, args.id, args.by, deps.now());
      session.wrote();
      return { old: old.lesson, replacement: replacement.lesson };
    },
  });

const upvote = ({ deps, session }: Context) =>
  defineTool({
    name: 'lore_upvote',
    description:
      'Record that a lesson helped `model` with `task` (one vote per lesson, model and task; votes decay with time).',
    input: UpvoteInput,
    output: UpvoteOutput,
    async handler(args, ws) {
      const [{ upvoteLesson }, { summarizeVotes }] = await Promise.all([
        writes(),
        import('../../core/rank/votes.js'),
      ]);
      const { target, recorded } = await upvoteLesson(ws, args.id, {
        model: args.model.trim(),
        task: args.task.trim(),
        at: new Date(deps.now()).toISOString(),
      });
      session.wrote();
      const votes = summarizeVotes(
        ws.store(target.tier).readVotes(target.id).votes,
        deps.now(),
        ws.halfLifeDays,
      );
      return { id: target.id, recorded, votes };
    },
  });

const feedback = ({ deps, session }: Context) =>
  defineTool({
    name: 'lore_feedback',
    description:
      'Say whether a lesson helped with a task: helpful raises its confidence by 0.05 (at most 1), not helpful lowers it by 0.1 (at least 0.1). In a known session, one verdict per lesson counts once.',
    input: FeedbackInput,
    output: FeedbackOutput,
    async handler(args, ws) {
      const { appendFeedback, readFeedback, summarizeFeedback } = await feedbackStore();
      const result = await appendFeedback(ws, args.id, {
        helpful: args.helpful,
        task: args.task,
        at: new Date(deps.now()).toISOString(),
        ...(args.note ? { note: args.note } : {}),
        ...(args.model ? { model: args.model } : {}),
        ...(session.sessionId ? { session: session.sessionId } : {}),
        source: 'mcp',
      });
      session.wrote();
      return {
        id: result.id,
        recorded: result.recorded,
        confidence: result.confidence,
        feedback: summarizeFeedback(readFeedback(ws, result)),
      };
    },
  });

/** In the order tools/list shows them. */
export function lessonTools(context: Context): AnyToolSpec[] {
  return [search, list, show, add, update, supersede, upvote, feedback].map((tool) => tool(context));
}
