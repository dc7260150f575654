import { LoreError } from '../../core/errors.js';
import { STATUSES, TIERS } from '../../core/lesson/constants.js';
import type { LessonSearch } from '../../store/embed/hybrid-lessons.js';
import { choiceOption, flagOption, listOption, numberOption } from '../command.js';
import type { Command } from '../command.js';
import { formatLessonRow } from '../output.js';
import { noteProblems, openCommandWorkspace } from '../open-workspace.js';

export const command: Command = {
  spec: {
    usage:
      'lore search QUERY [--hybrid] [--limit N] [--tag T]... [--status S|any] [--tier T] [--json]\n' +
      '       lore search --kind doc QUERY [--hybrid] [--limit N] [--tag T]... [--json]',
    description:
      'BM25 over summary, tags, scope (tools, commands, paths, stack, category), structured fields and body,\n' +
      'weighted by field (config: search.weights). Equal relevance is ordered by decayed vote score,\n' +
      'priority, most recently updated, id. Each result says which fields matched (matchedBy).\n' +
      '--kind doc searches the project docs instead (see `lore docs`): the whole query found in the summary\n' +
      'scores 80 + its length, an exact tag 120, a tag containing it 60, the type 30; ties by path.\n' +
      '--hybrid blends that with BM25 over the doc bodies `lore docs index` indexed (each min-max\n' +
      'normalised; config docs.hybridWeight is the body share, default 0.5), and with embeddings configured\n' +
      "also with the docs' similarity by meaning (`lore sync --embed` embeds them; embeddings.weight).\n" +
      "For lessons, --hybrid blends BM25 with the cosine similarity of the query to each lesson's vector (config\n" +
      'embeddings: your Ollama, OpenAI-compatible or local model; `lore sync --embed` embeds the lessons), each\n' +
      'min-max normalised, embeddings.weight the semantic share (default 0.5); matchedBy says `semantic` for\n' +
      'lessons found by meaning. Without a provider or vectors it gives the BM25 results and says why on stderr.',
    options: {
      limit: {
        type: 'string',
        value: 'N',
        description: 'at most N results (default: config search.limit, 10)',
      },
      tag: {
        type: 'string',
        multiple: true,
        value: 'T',
        description: 'only lessons with this tag; repeatable',
      },
      status: { type: 'string', value: 'S', description: `${STATUSES.join(' | ')} | any (default active)` },
      tier: { type: 'string', value: 'T', description: TIERS.join(' | ') },
      kind: { type: 'string', value: 'K', description: 'lesson (default) | doc: search the project docs' },
      hybrid: {
        type: 'boolean',
        description: 'blend in meaning (lessons: embeddings) or body scores (--kind doc: `lore docs index`)',
      },
    },
    positionals: { min: 1, max: 64, names: 'QUERY' },
    json: true,
    examples: [
      'lore search pytest hangs',
      'lore search "mock.patch" --tag lang:python --json',
      'lore search --kind doc retry policy',
      'lore search --kind doc --hybrid "token refresh"',
      'lore search --hybrid "why does my test runner hang in CI"',
    ],
  },
  async run(ctx, args) {
    const query = args.positionals.join(' ');
    // an unset shell variable (`lore search "$Q"`) is a mistake to say, not a search for nothing
    if (query.trim() === '')
      throw new LoreError('usage', 'the query is empty', {
        hint: 'usage: lore search QUERY (to see every lesson: lore list)',
      });
    const kind = choiceOption(args, 'kind', ['lesson', 'doc'] as const) ?? 'lesson';
    if (kind === 'doc') {
      const { searchDocsCommand } = await import('../search-docs.js');
      return searchDocsCommand(ctx, args, query);
    }
    const status = choiceOption(args, 'status', [...STATUSES, 'any'] as const) ?? 'active';
    const tier = choiceOption(args, 'tier', TIERS);
    const ws = await openCommandWorkspace(ctx);
    try {
      const limit =
        numberOption(args, 'limit', { integer: true, min: 1, max: 1000 }) ?? ws.config.search.limit;
      const filter = { status, tags: listOption(args, 'tag'), tier, limit };
      // the embedding code loads only for --hybrid: a plain search stays as small as before
      const found: LessonSearch = flagOption(args, 'hybrid')
        ? await (
            await import('../../store/embed/hybrid-lessons.js')
          ).searchLessonsWith(ws, ctx.env, { query, filter, nowMs: ctx.now(), hybrid: true })
        : {
            mode: 'lexical',
            results: await ws.index.search(
              query,
              filter,
              ws.config.search.weights,
              ctx.now(),
              ws.halfLifeDays,
            ),
          };
      const { results } = found;
      if (found.fallback !== undefined) ctx.note(`lore: ${found.fallback}`);
      if (found.unembedded !== undefined) ctx.note(`lore: ${found.unembedded.note}`);
      const problems = await noteProblems(ctx, ws);
      const text =
        results.length === 0
          ? `no lessons match "${query}"`
          : results.map((r) => formatLessonRow(r.lesson, `  <- ${r.matchedBy.join(', ')}`)).join('\n');
      return {
        data: {
          query,
          mode: found.mode,
          ...(found.fallback === undefined ? {} : { fallback: found.fallback }),
          ...(found.unembedded === undefined ? {} : { unembedded: found.unembedded }),
          results: results.map((r) => ({
            ...r.lesson,
            file: ws.displayPath(r.file),
            score: Number(r.relevance.toFixed(6)),
            votes: { count: r.votes.count, lastVotedAt: r.votes.lastVotedAt, score: r.voteScore },
            matchedBy: r.matchedBy,
            ...(r.scores === undefined ? {} : { scores: r.scores }),
          })),
          problems,
        },
        text,
      };
    } finally {
      ws.close();
    }
  },
};
