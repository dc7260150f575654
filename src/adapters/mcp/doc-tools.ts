/**
 * The docs tools of `lore mcp`: list, show and search the project docs (designs, patterns,
 * context, glossaries, runbooks) through the store's docs actions, as `lore docs` does.
 */
import type { z } from 'zod';
import { docsScope, listDocs, searchDocs, showDoc } from '../../store/docs/docs-actions.js';
import type { ListedDoc } from '../../store/docs/docs-actions.js';
import { defineTool } from './register-tools.js';
import type { AnyToolSpec } from './register-tools.js';
import {
  DocsListInput,
  DocsListOutput,
  DocsSearchInput,
  DocsSearchOutput,
  DocsShowInput,
  DocsShowOutput,
} from './tool-schemas.js';

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

const list = defineTool({
  name: 'lore_docs_list',
  description:
    "List this repository's project docs (designs, patterns, context, glossaries, runbooks under the docs roots), in path order. Docs without a frontmatter are listed with inferred metadata (source: inferred).",
  input: DocsListInput,
  output: DocsListOutput,
  async handler(args, ws) {
    const listed = await listDocs(docsScope(ws), { type: args.type, tags: args.tags });
    return { docs: listed.docs.slice(0, args.limit ?? 200).map(toDocHit), total: listed.docs.length };
  },
});

const show = defineTool({
  name: 'lore_docs_show',
  description:
    'One project doc: its metadata and Markdown text. Only files under the docs roots; never .lore/, never a symlink leading out of the roots.',
  input: DocsShowInput,
  output: DocsShowOutput,
  async handler(args, ws) {
    const view = await showDoc(docsScope(ws), args.path, ws.projectRoot ?? ws.cwd);
    return {
      doc: toDocHit(view.doc),
      body: view.body,
      problems: view.doc.problems.map(({ line, field, message }) => ({ line, field, message })),
    };
  },
});

const search = (env: NodeJS.ProcessEnv) =>
  defineTool({
    name: 'lore_docs_search',
    description:
      'Search the project docs: the query in a summary (80 + its length), an exact tag (120), a tag containing it (60), the type (30); ties by path. hybrid: true blends in BM25 over the bodies indexed by `lore docs index` (and says so when there is no index yet), and meaning when embeddings are configured (`semantic` says why not otherwise).',
    input: DocsSearchInput,
    output: DocsSearchOutput,
    async handler(args, ws) {
      const meaning =
        args.hybrid === true
          ? await (await import('../../store/embed/doc-vectors.js')).semanticDocScores(ws, env, args.query)
          : undefined;
      const found = await searchDocs(docsScope(ws), args.query, {
        hybrid: args.hybrid === true,
        limit: args.limit ?? 10,
        ...(meaning?.semantic === undefined ? {} : { semantic: meaning.semantic }),
      });
      return {
        mode: found.mode,
        ...(found.fallback === undefined ? {} : { fallback: found.fallback }),
        ...(meaning?.note === undefined ? {} : { semantic: meaning.note }),
        results: found.results.map((hit) => ({
          ...toDocHit(hit),
          score: hit.score,
          matched_by: hit.matchedBy,
        })),
      };
    },
  });

/** In the order tools/list shows them; `env` holds the embedding provider's key variable, if any. */
export function docTools(env: NodeJS.ProcessEnv = {}): AnyToolSpec[] {
  return [list, show, search(env)];
}
