/**
 * `lore search --kind doc`: the docs half of `lore search`, loaded only when asked for.
 */
import { LoreError, formatProblem } from '../core/errors.js';
import { docsScope, searchDocs } from '../store/docs/docs-actions.js';
import { openWorkspace } from '../store/workspace/workspace.js';
import { flagOption, listOption, numberOption } from './command.js';
import type { CommandContext, CommandOutput, ParsedArgs } from './command.js';
import { formatDocRow } from './commands/docs.js';

export async function searchDocsCommand(
  ctx: CommandContext,
  args: ParsedArgs,
  query: string,
): Promise<CommandOutput> {
  for (const name of ['status', 'tier']) {
    if (args.values[name] !== undefined) {
      throw new LoreError('usage', `--${name} goes with lessons, not with --kind doc`, {
        hint: 'docs take --tag, --limit and --hybrid',
      });
    }
  }
  const ws = await openWorkspace({ cwd: ctx.cwd, root: ctx.root, env: ctx.env });
  try {
    for (const problem of ws.configProblems) ctx.note(`lore: ${formatProblem(problem)}`);
    const limit = numberOption(args, 'limit', { integer: true, min: 1, max: 1000 }) ?? ws.config.search.limit;
    const tags = (listOption(args, 'tag') ?? []).map((tag) => tag.toLowerCase());
    const hybrid = flagOption(args, 'hybrid');
    // meaning joins the docs' hybrid search when embeddings are configured (loaded only then)
    const meaning = hybrid
      ? await (await import('../store/embed/doc-vectors.js')).semanticDocScores(ws, ctx.env, query)
      : undefined;
    const found = await searchDocs(docsScope(ws), query, {
      hybrid,
      limit: tags.length > 0 ? undefined : limit,
      ...(meaning?.semantic === undefined ? {} : { semantic: meaning.semantic }),
    });
    if (meaning?.note !== undefined) ctx.note(`lore: ${meaning.note}`);
    const results = found.results
      .filter((doc) => tags.every((tag) => doc.tags.some((have) => have.toLowerCase() === tag)))
      .slice(0, limit);
    if (found.fallback !== undefined) ctx.note(`lore: ${found.fallback}`);
    const text =
      results.length === 0
        ? `no docs match "${query}"`
        : results.map((doc) => `${formatDocRow(doc)}  <- ${doc.matchedBy.join(', ')}`).join('\n');
    return { data: { ...found, results }, text };
  } finally {
    ws.close();
  }
}
