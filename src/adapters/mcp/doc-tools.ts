/**
 * The docs tools of `lore mcp`: list, show and search the project docs (designs, patterns,
 * context, glossaries, runbooks), and add a root, index the bodies and migrate frontmatter (Orbit
 * docs' verbs), through the store's docs actions and writes, as `lore docs` does.
 */
import type { z } from 'zod';
import { docsScope, indexDocs, listDocs, searchDocs, showDoc } from '../../store/docs/docs-actions.js';
import { afterWrite } from '../../store/workspace/after-write.js';
import type { ListedDoc } from '../../store/docs/docs-actions.js';
import { defineTool } from './register-tools.js';
import type { AnyToolSpec } from './register-tools.js';
import {
  DocsAddInput,
  DocsAddOutput,
  DocsIndexInput,
  DocsIndexOutput,
  DocsMigrateInput,
  DocsMigrateOutput,
  DocsListInput,
  DocsListOutput,
  DocsSearchInput,
  DocsSearchOutput,
  DocsShowInput,
  DocsShowOutput,
} from './tool-schemas.js';

function toDocHit(doc: ListedDoc): z.infer<ReturnType<typeof DocsListOutput>>['docs'][number] {
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

const add = defineTool({
  name: 'lore_docs_add',
  description:
    'Register a directory of the repository as a docs root in .lore/config.yaml (docs.roots; comments kept). Idempotent; refuses missing paths, files, .lore/ and paths outside the repository.',
  input: DocsAddInput,
  output: DocsAddOutput,
  async handler(args, ws) {
    // Loaded on call: the write path (the YAML document model) stays out of tools/list.
    const { addDocsRoot } = await import('../../store/docs/docs-writes.js');
    const result = addDocsRoot(docsScope(ws), args.dir, ws.projectRoot ?? ws.cwd);
    if (result.added) await afterWrite(ws, 'project');
    return result;
  },
});

const index = defineTool({
  name: 'lore_docs_index',
  description:
    'Build or refresh the body index lore_docs_search uses with hybrid: true (unchanged docs are skipped unless force).',
  input: DocsIndexInput,
  output: DocsIndexOutput,
  async handler(args, ws) {
    const result = await indexDocs(docsScope(ws), args.force === true);
    if (ws.project !== undefined) await afterWrite(ws, 'project');
    return {
      indexed: result.indexed,
      unchanged: result.unchanged,
      removed: result.removed,
      total: result.total,
      skippedRoots: result.roots
        .filter((root) => root.skipped !== undefined)
        .map((root) => ({ root: root.pattern, reason: root.skipped ?? '' })),
    };
  },
});

const migrate = defineTool({
  name: 'lore_docs_migrate',
  description:
    'Write the inferred frontmatter (type, summary, tags, ...) into docs that have none; dryRun: true returns each diff and writes nothing. notUtf8 names the docs left alone because they are not UTF-8; problems lists what a person must fix, with file and line.',
  input: DocsMigrateInput,
  output: DocsMigrateOutput,
  async handler(args, ws) {
    const { migrateDocs } = await import('../../store/docs/docs-writes.js');
    const dryRun = args.dryRun === true;
    const result = migrateDocs(docsScope(ws), dryRun);
    if (!dryRun && result.changed.length > 0 && ws.project !== undefined) await afterWrite(ws, 'project');
    return {
      dryRun,
      changed: result.changed.map((doc) => ({ path: doc.path, added: doc.added, diff: doc.diff })),
      unchanged: result.unchanged,
      notUtf8: result.notUtf8,
      problems: result.problems,
    };
  },
});

/** In the order tools/list shows them; `env` holds the embedding provider's key variable, if any. */
export function docTools(env: NodeJS.ProcessEnv = {}): AnyToolSpec[] {
  return [list, show, search(env), add, index, migrate];
}
