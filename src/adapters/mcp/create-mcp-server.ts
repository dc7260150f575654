/**
 * `lore mcp`: lore's lessons as an MCP server. Tools search, read, add, update, supersede, vote
 * and give feedback through the same store calls the CLI makes; answers that reference file
 * paths carry the learnings sidecar (src/store/inject/learnings-sidecar.ts). A resource per lesson
 * (`lesson://{id}`) and a prompt that reviews the lessons for a path.
 *
 * Calls run one at a time against one workspace. The index is refreshed from the files when a
 * call follows a change seen by the file watch, one of our own writes, or a long quiet spell.
 */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { isLoreError } from '../../core/errors.js';
import type { Lesson, Status, Tier } from '../../core/lesson/schema.js';
import {
  collectLearnings,
  repoPathOf as repoPath,
  sessionIdFrom,
} from '../../store/inject/learnings-sidecar.js';
import type { ListedLesson } from '../../store/index/lesson-index.js';
import type { LessonDraft } from '../../store/lessons/lesson-writes.js';
import { watchLessons } from '../../store/workspace/watch-lessons.js';
import type { LessonWatch } from '../../store/workspace/watch-lessons.js';
import type { Workspace } from '../../store/workspace/workspace.js';
import { docsScope, listDocs, searchDocs, showDoc } from '../../store/docs/docs-actions.js';
import type { ListedDoc } from '../../store/docs/docs-actions.js';
import {
  AddInput,
  DocsListInput,
  DocsListOutput,
  DocsSearchInput,
  DocsSearchOutput,
  DocsShowInput,
  DocsShowOutput,
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
  TOOL_USAGE,
  UpdateInput,
  UpvoteInput,
  UpvoteOutput,
  WriteOutput,
} from './tool-schemas.js';

export type McpDeps = {
  openWorkspace(): Promise<Workspace>;
  env: NodeJS.ProcessEnv;
  now(): number;
  tmpdir: string;
  uid: number | string;
  version: string;
  /** Diagnostics (stderr): never stdout, which carries the protocol. */
  log(line: string): void;
  /**
   * Check every lesson file's signature when a call comes this long after the last check
   * (default 30 s; 2 s when the lesson folders cannot be watched). A watched change is picked up
   * by the next call.
   */
  refreshMs?: number;
};

export type LoreMcpServer = { server: McpServer; close(): Promise<void> };

/** Writes, votes and feedback load YAML and the lesson schema: only when a tool needs them. */
const writes = () => import('../../store/lessons/lesson-writes.js');
const feedbackStore = () => import('../../store/lessons/feedback.js');

type Hit = z.infer<typeof ListOutput>['lessons'][number];

function toDocHit(doc: ListedDoc): z.infer<typeof DocsListOutput>['docs'][number] {
  return {
    path: doc.path,
    type: doc.type,
    summary: doc.summary,
    tags: doc.tags,
    paths: doc.paths,
    related_features: doc.relatedFeatures,
    related_artifacts: doc.relatedArtifacts,
    source: doc.source,
  };
}

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

/** A tool answer: the data as structuredContent and, for clients that read only text, as JSON text. */
function answer<T extends Record<string, unknown>>(data: T): CallToolResult & { structuredContent: T } {
  return { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data };
}

function failure(tool: string, message: string, hint?: string): CallToolResult {
  const usage = TOOL_USAGE[tool];
  const lines = [message, ...(hint ? [hint] : []), ...(usage ? [`call it as: ${usage}`] : [])];
  return { content: [{ type: 'text', text: lines.join('\n') }], isError: true };
}

function renderLessonMarkdown(lesson: Lesson): string {
  const scope = [
    ...lesson.tools.map((t) => `tool ${t}`),
    ...lesson.commands.map((c) => `command /${c}/`),
    ...lesson.paths.map((p) => `path ${p}`),
    ...lesson.tags.map((t) => `tag ${t}`),
  ];
  return [
    `# ${lesson.summary}`,
    '',
    `id ${lesson.id} · ${lesson.type} · ${lesson.category} · severity ${lesson.severity} · priority ${lesson.priority} · confidence ${lesson.confidence} · ${lesson.status}`,
    ...(scope.length > 0 ? ['', `scope: ${scope.join(', ')}`] : []),
    ...(lesson.mistake ? ['', `mistake: ${lesson.mistake}`] : []),
    ...(lesson.remediation ? ['', `remediation: ${lesson.remediation}`] : []),
    ...(lesson.body ? ['', lesson.body.trimEnd()] : []),
    '',
  ].join('\n');
}

export function createLoreMcpServer(deps: McpDeps): LoreMcpServer {
  const server = new McpServer(
    { name: 'lore', version: deps.version },
    {
      instructions:
        "lore holds this repository's lessons: mistakes agents made before and what to do instead. " +
        'Search them (lore_search) before risky work; answers about file paths carry `learnings` for those paths. ' +
        'Say LEARNING_HELPFUL: <id> or LEARNING_NOT_HELPFUL: <id> in your reply (or call lore_feedback) after using one. ' +
        'Project docs (designs, patterns, runbooks, glossaries) are found with lore_docs_search and read with lore_docs_show.',
    },
  );
  const sessionId = sessionIdFrom(deps.env);
  let workspace: Promise<Workspace> | undefined;
  let watcher: LessonWatch | undefined;
  let refreshedAt = 0;
  let first = true;
  let changed = true;
  let queue: Promise<unknown> = Promise.resolve();

  const open = (): Promise<Workspace> => {
    workspace ??= deps.openWorkspace().then(
      (ws) => {
        watcher = watchLessons(ws.tiers, () => {
          changed = true;
        });
        return ws;
      },
      (error: unknown) => {
        workspace = undefined;
        throw error;
      },
    );
    return workspace;
  };

  /** Runs `fn` after every earlier call, with a fresh enough index. */
  const serial = <T>(fn: (ws: Workspace) => Promise<T>): Promise<T> => {
    const run = queue.then(async () => {
      const ws = await open();
      const interval = deps.refreshMs ?? (watcher?.complete === false ? 2000 : 30_000);
      if (first) {
        // the first run (the warm-up below): ready() refreshes a fresh workspace's index once, as
        // every CLI read does
        first = false;
        changed = false;
        await ws.ready();
        refreshedAt = deps.now();
      } else if (changed || deps.now() - refreshedAt > interval) {
        changed = false;
        ws.index.invalidate();
        await ws.ready();
        await ws.index.refresh();
        refreshedAt = deps.now();
      }
      return fn(ws);
    });
    queue = run.catch(() => undefined);
    return run;
  };
  /** After a write of ours: the next call looks at the files again. */
  const wrote = () => {
    changed = true;
  };

  const learningsFor = (ws: Workspace, paths: readonly string[], exclude: Iterable<string>, tool: string) =>
    collectLearnings(
      ws,
      paths,
      new Set(exclude),
      { sessionId, tmpdir: deps.tmpdir, uid: deps.uid, nowMs: deps.now(), cap: ws.config.inject.maxLessons },
      tool,
    );

  /** Registers a tool whose handler runs serially and turns every failure into an isError answer. */
  const tool = <In extends z.ZodType, Out extends z.ZodObject>(
    name: string,
    description: string,
    input: In,
    output: Out,
    handler: (args: z.infer<In>, ws: Workspace) => Promise<z.infer<Out>>,
  ) => {
    server.registerTool(name, { description, inputSchema: input, outputSchema: output }, (async (
      args: z.infer<In>,
    ) => {
      try {
        return answer(await serial((ws) => handler(args, ws)));
      } catch (error) {
        if (isLoreError(error)) return failure(name, error.message, error.hint);
        deps.log(`lore mcp: ${name}: internal error: ${(error as Error)?.stack ?? String(error)}`);
        return failure(name, `internal error: ${(error as Error)?.message ?? String(error)}`);
      }
    }) as never);
  };

  tool(
    'lore_search',
    "Search this repository's lessons (past mistakes and their fixes). Scope filters first (path glob, tags, tool, command regex), then BM25 over the query; ties by votes, priority, confidence, recency. Every result says why it matched (matched_by). With a path, the answer also carries `learnings` for it.",
    SearchInput,
    SearchOutput,
    async (args, ws) => {
      const filter = {
        status: (args.status ?? 'active') as Status | 'any',
        tags: args.tags,
        tools: args.tool === undefined ? undefined : [args.tool],
        path: args.path === undefined ? undefined : (repoPath(ws, args.path) ?? args.path),
        command: args.command,
      };
      const limit = args.limit ?? ws.config.search.limit;
      const query = args.query?.trim() ?? '';
      const results =
        query === ''
          ? (await ws.index.list(filter, deps.now(), ws.halfLifeDays, limit)).map((item) => ({
              ...toHit(item),
              score: 0,
            }))
          : (
              await ws.index.search(
                query,
                { ...filter, limit },
                ws.config.search.weights,
                deps.now(),
                ws.halfLifeDays,
              )
            ).map((item) => ({ ...toHit(item), score: Number(item.relevance.toFixed(6)) }));
      const learnings =
        args.path === undefined
          ? []
          : await learningsFor(
              ws,
              [args.path],
              results.map((r) => r.id),
              'lore_search',
            );
      return {
        results,
        learnings,
        hint:
          results.length === 0
            ? 'no lesson matched; try fewer words, drop a filter, or status "any"'
            : 'read one in full with lore_show {"id"}; after using one, call lore_feedback or say LEARNING_HELPFUL: <id>',
      };
    },
  );

  tool(
    'lore_list',
    'List lessons filtered by status, tags, path (glob match), tool or tier, in rank order (votes, priority, confidence, recency). With a path, the answer also carries `learnings` for it.',
    ListInput,
    ListOutput,
    async (args, ws) => {
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
      const learnings =
        args.path === undefined
          ? []
          : await learningsFor(
              ws,
              [args.path],
              lessons.map((l) => l.id),
              'lore_list',
            );
      return { lessons, total: listed.length, learnings };
    },
  );

  tool(
    'lore_show',
    'One lesson in full: the record (body, mistake, remediation, scope), its votes, feedback and how often it was injected.',
    ShowInput,
    ShowOutput,
    async (args, ws) => {
      const [{ resolveLesson }, { readLessonReport }] = await Promise.all([
        writes(),
        import('../../store/lessons/lesson-report.js'),
      ]);
      const target = await resolveLesson(ws, args.id);
      const report = readLessonReport(ws, target, deps.now());
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
      };
    },
  );

  tool(
    'lore_add',
    'Add a lesson: a one-line summary the agent should read, and optionally its scope (paths, tools, commands, tags) and details. lore allocates the id and returns it.',
    AddInput,
    WriteOutput,
    async (args, ws) => {
      const { tier: wanted, ...draft } = args;
      const [{ addLesson, author }, { initTier }] = await Promise.all([
        writes(),
        import('../../store/workspace/init-tier.js'),
      ]);
      const tier: Tier = wanted ?? (ws.project ? 'project' : 'user');
      if (tier === 'user' && !ws.user.exists()) initTier(ws.user.layout);
      const added = await addLesson(ws, draft as LessonDraft, {
        tier,
        nowMs: deps.now(),
        createdBy: author(deps.env) ?? 'mcp',
      });
      wrote();
      return { id: added.id, tier, file: ws.displayPath(added.file), lesson: added.lesson };
    },
  );

  tool(
    'lore_update',
    'Change fields of a lesson (any lore_add field); `unset` removes optional fields.',
    UpdateInput,
    WriteOutput,
    async (args, ws) => {
      const { id, unset, ...draft } = args;
      const { updateLesson } = await writes();
      const updated = await updateLesson(ws, id, draft as LessonDraft, { nowMs: deps.now(), unset });
      wrote();
      return {
        id: updated.id,
        tier: updated.tier,
        file: ws.displayPath(updated.file),
        lesson: updated.lesson,
      };
    },
  );

  tool(
    'lore_supersede',
    'Replace lesson `id` by the active lesson `by`: the old one becomes superseded and is never injected again; both files change together.',
    SupersedeInput,
    SupersedeOutput,
    async (args, ws) => {
      const { supersedeLesson } = await writes();
      const { old, replacement } = await supersedeLesson(ws, args.id, args.by, deps.now());
      wrote();
      return { old: old.lesson, replacement: replacement.lesson };
    },
  );

  tool(
    'lore_upvote',
    'Record that a lesson helped `model` with `task` (one vote per lesson, model and task; votes decay with time).',
    UpvoteInput,
    UpvoteOutput,
    async (args, ws) => {
      const [{ upvoteLesson }, { summarizeVotes }] = await Promise.all([
        writes(),
        import('../../core/rank/votes.js'),
      ]);
      const { target, recorded } = await upvoteLesson(ws, args.id, {
        model: args.model.trim(),
        task: args.task.trim(),
        at: new Date(deps.now()).toISOString(),
      });
      wrote();
      const votes = summarizeVotes(
        ws.store(target.tier).readVotes(target.id).votes,
        deps.now(),
        ws.halfLifeDays,
      );
      return { id: target.id, recorded, votes };
    },
  );

  tool(
    'lore_feedback',
    'Say whether a lesson helped with a task: helpful raises its confidence by 0.05 (at most 1), not helpful lowers it by 0.1 (at least 0.1). In a known session, one verdict per lesson counts once.',
    FeedbackInput,
    FeedbackOutput,
    async (args, ws) => {
      const { appendFeedback, readFeedback, summarizeFeedback } = await feedbackStore();
      const result = await appendFeedback(ws, args.id, {
        helpful: args.helpful,
        task: args.task,
        at: new Date(deps.now()).toISOString(),
        ...(args.note ? { note: args.note } : {}),
        ...(args.model ? { model: args.model } : {}),
        ...(sessionId ? { session: sessionId } : {}),
        source: 'mcp',
      });
      wrote();
      return {
        id: result.id,
        recorded: result.recorded,
        confidence: result.confidence,
        feedback: summarizeFeedback(readFeedback(ws, result)),
      };
    },
  );

  tool(
    'lore_docs_list',
    "List this repository's project docs (designs, patterns, context, glossaries, runbooks under the docs roots), in path order. Docs without a frontmatter are listed with inferred metadata (source: inferred).",
    DocsListInput,
    DocsListOutput,
    async (args, ws) => {
      const listed = await listDocs(docsScope(ws), { type: args.type, tags: args.tags });
      return { docs: listed.docs.slice(0, args.limit ?? 200).map(toDocHit), total: listed.docs.length };
    },
  );

  tool(
    'lore_docs_show',
    'One project doc: its metadata and Markdown text. Only files under the docs roots; never .lore/, never a symlink leading out of the roots.',
    DocsShowInput,
    DocsShowOutput,
    async (args, ws) => {
      const view = await showDoc(docsScope(ws), args.path, ws.projectRoot ?? ws.cwd);
      return {
        doc: toDocHit(view.doc),
        body: view.body,
        problems: view.doc.problems.map(({ line, field, message }) => ({ line, field, message })),
      };
    },
  );

  tool(
    'lore_docs_search',
    'Search the project docs: the query in a summary (80 + its length), an exact tag (120), a tag containing it (60), the type (30); ties by path. hybrid: true blends in BM25 over the bodies indexed by `lore docs index` (and says so when there is no index yet).',
    DocsSearchInput,
    DocsSearchOutput,
    async (args, ws) => {
      const found = await searchDocs(docsScope(ws), args.query, {
        hybrid: args.hybrid === true,
        limit: args.limit ?? 10,
      });
      return {
        mode: found.mode,
        ...(found.fallback === undefined ? {} : { fallback: found.fallback }),
        results: found.results.map((hit) => ({
          ...toDocHit(hit),
          score: hit.score,
          matched_by: hit.matchedBy,
        })),
      };
    },
  );

  server.registerResource(
    'lesson',
    new ResourceTemplate('lesson://{id}', {
      list: async () => {
        const listed = await serial((ws) => ws.index.list({ status: 'active' }, deps.now(), ws.halfLifeDays));
        return {
          resources: listed.slice(0, 200).map((item) => ({
            uri: `lesson://${item.lesson.id}`,
            name: item.lesson.slug,
            description: item.lesson.summary,
            mimeType: 'text/markdown',
          })),
        };
      },
    }),
    {
      description: 'One lesson as markdown: summary, scope, mistake, remediation, body.',
      mimeType: 'text/markdown',
    },
    async (uri, variables) => {
      const id = String(variables.id ?? '');
      const target = await serial(async (ws) => (await writes()).resolveLesson(ws, id));
      return {
        contents: [{ uri: uri.href, mimeType: 'text/markdown', text: renderLessonMarkdown(target.lesson) }],
      };
    },
  );

  server.registerPrompt(
    'review-lessons-for-path',
    {
      description: 'Review the lessons that apply to a file path before working on it.',
      argsSchema: { path: z.string().min(1).describe('a file path in this repository') },
    },
    async ({ path }) => {
      const listed = await serial((ws) =>
        ws.index.list({ status: 'active', path: repoPath(ws, path) ?? path }, deps.now(), ws.halfLifeDays),
      );
      const lines =
        listed.length === 0
          ? [`No lesson applies to ${path} yet.`]
          : [
              `These lessons apply to ${path}. Review each before you change the file: does it still hold? Is it clear?`,
              'Use lore_feedback for each one you judge (helpful or not), lore_update to fix one, lore_supersede to replace one.',
              '',
              ...listed
                .slice(0, 20)
                .map((item) => `- ${item.lesson.id} (${item.matchedBy.join(', ')}): ${item.lesson.summary}`),
            ];
      return { messages: [{ role: 'user', content: { type: 'text', text: lines.join('\n') } }] };
    },
  );

  // The SDK answers arguments that fail the input schema itself; say how to call the tool right.
  const internals = server as unknown as { createToolError(message: string): CallToolResult };
  internals.createToolError = (message: string) => {
    const name = /for tool ([a-z_]+)/.exec(message)?.[1] ?? /Tool ([a-z_]+) not found/.exec(message)?.[1];
    const known = name !== undefined && TOOL_USAGE[name] !== undefined;
    return failure(
      name ?? 'lore',
      message,
      known ? undefined : `lore's tools: ${Object.keys(TOOL_USAGE).join(', ')}`,
    );
  };

  // Open the workspace and check the index while the client initializes: the first call is answered sooner.
  void serial(async () => undefined).catch(() => undefined);

  return {
    server,
    async close() {
      watcher?.close();
      await server.close();
      if (workspace) (await workspace.catch(() => undefined))?.close();
    },
  };
}
