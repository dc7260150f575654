/**
 * The docs verbs as store functions returning data: the CLI (`lore docs`, `lore search --kind
 * doc`) and the MCP tools call these same functions.
 */
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { LoreError } from '../../core/errors.js';
import type { Problem } from '../../core/errors.js';
import { blendDocScores } from '../../core/docs/blend-doc-scores.js';
import type { DocScorer } from '../../core/docs/blend-doc-scores.js';
import type { DocRecord, DocType } from '../../core/docs/doc-record.js';
import { DOCS_DEFAULTS } from '../../core/docs/docs-defaults.js';
import type { Config } from '../../core/lesson/schema.js';
import { scoreDocs } from '../../core/docs/score-docs.js';
import {
  DOCS_DB_FILE,
  DOCS_RECORDS_FILE,
  DOCS_WALK_FILE,
  loadDocRecords,
  openDocsIndex,
} from './docs-index.js';

export { DOCS_DB_FILE, DOCS_RECORDS_FILE, DOCS_WALK_FILE } from './docs-index.js';
import type { BodyIndexReport, DocsIndex, LoadedDoc } from './docs-index.js';
import { DOC_EXTENSIONS, expandDocsRoot, normalizeDocsRoot, walkDocsCached } from './docs-walker.js';
import type { WalkedDoc, WalkedRoot } from './docs-walker.js';
import { findRepositoryRoot, LORE_DIR } from '../fs/paths.js';
import type { Workspace } from '../workspace/workspace.js';

/** What the docs verbs need from a workspace. */
export type DocsScope = {
  /** The repository the roots are relative to. */
  repoRoot: string;
  cacheDir: string;
  roots: string[];
  taskPrefixes: string[];
  hybridWeight: number;
  /** The project's config.yaml, where `lore docs add` registers roots; undefined without a project. */
  configFile: string | undefined;
  displayPath(path: string): string;
};

export function docsScope(ws: Workspace): DocsScope {
  // a config cached by an older lore has no docs section: the defaults apply
  const docs = (ws.config.docs as Config['docs'] | undefined) ?? {
    ...DOCS_DEFAULTS,
    roots: [...DOCS_DEFAULTS.roots],
    taskPrefixes: [],
  };
  return {
    repoRoot: ws.projectRoot ?? findRepositoryRoot(ws.cwd),
    cacheDir: ws.cacheDir,
    roots: docs.roots,
    taskPrefixes: docs.taskPrefixes,
    hybridWeight: docs.hybridWeight,
    configFile: ws.project?.layout.configFile,
    displayPath: ws.displayPath,
  };
}

export type ListedDoc = DocRecord & { problems: Problem[] };

function toListed(doc: LoadedDoc): ListedDoc {
  return { ...doc.record, problems: doc.problems };
}

/** Every doc under the roots with its record (parsed only when its file changed). */
export async function loadAll(scope: DocsScope): Promise<{ docs: LoadedDoc[]; roots: WalkedRoot[] }> {
  const walk = walkDocsCached(scope.repoRoot, scope.roots, join(scope.cacheDir, DOCS_WALK_FILE));
  const display = (doc: WalkedDoc): string => scope.displayPath(doc.abs);
  const docs = await loadDocRecords(
    join(scope.cacheDir, DOCS_RECORDS_FILE),
    walk.docs,
    { taskPrefixes: scope.taskPrefixes },
    display,
  );
  return { docs, roots: walk.roots };
}

export type DocsFilter = { type?: DocType; tags?: readonly string[] };

export type DocsList = { docs: ListedDoc[]; roots: WalkedRoot[]; problems: Problem[] };

/** Every doc under the roots (filters ANDed; tags compared without case), in path order. */
export async function listDocs(scope: DocsScope, filter: DocsFilter = {}): Promise<DocsList> {
  const { docs, roots } = await loadAll(scope);
  {
    const tags = (filter.tags ?? []).map((tag) => tag.toLowerCase());
    const kept = docs.filter(
      (doc) =>
        (filter.type === undefined || doc.record.type === filter.type) &&
        tags.every((tag) => doc.record.tags.some((have) => have.toLowerCase() === tag)),
    );
    return { docs: kept.map(toListed), roots, problems: docs.flatMap((doc) => doc.problems) };
  }
}

/** The docs whose related_features name one of `features` (case-insensitive), in path order. */
export async function selectFeatureDocs(
  scope: DocsScope,
  features: readonly string[],
): Promise<{ path: string; type: string; summary: string; matched_by: string[] }[]> {
  const wanted = new Set(features.map((feature) => feature.toLowerCase()));
  if (wanted.size === 0) return [];
  const { docs } = await loadAll(scope);
  return docs.flatMap(({ record }) => {
    const hits = record.relatedFeatures.filter((feature) => wanted.has(feature.toLowerCase()));
    return hits.length === 0
      ? []
      : [
          {
            path: record.path,
            type: record.type,
            summary: record.summary,
            matched_by: hits.map((feature) => `feature:${feature}`),
          },
        ];
  });
}

export type DocView = { doc: ListedDoc; text: string; body: string; file: string };

function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

function describeRoots(scope: DocsScope): string {
  return scope.roots.join(', ');
}

/**
 * One doc by path (relative to `cwd`, or to the repository). Refused: paths outside the docs
 * roots, under `.lore/`, or whose real path (symlinks resolved) leaves the roots.
 */
export async function showDoc(scope: DocsScope, input: string, cwd: string): Promise<DocView> {
  const allowed = `lore docs show reads Markdown files under the docs roots (${describeRoots(scope)}), never under ${LORE_DIR}/; add a root with \`lore docs add DIR\``;
  let abs = resolve(cwd, input);
  if (!existsSync(abs) && !isAbsolute(input) && existsSync(resolve(scope.repoRoot, input))) {
    abs = resolve(scope.repoRoot, input);
  }
  const shown = scope.displayPath(abs);
  if (!isInside(scope.repoRoot, abs)) {
    throw new LoreError('invalid', `${shown} is outside the repository`, { hint: allowed });
  }
  const lexical = relative(scope.repoRoot, abs).split(/[\\/]/);
  if (lexical.includes(LORE_DIR)) {
    throw new LoreError('invalid', `${shown} is under ${LORE_DIR}/, which is lore's own data, not a doc`, {
      hint: allowed,
    });
  }
  if (!existsSync(abs)) {
    throw new LoreError('not-found', `${shown} does not exist`, {
      hint: 'run `lore docs list` to see the docs',
    });
  }
  const repoReal = realpathSync(scope.repoRoot);
  const real = realpathSync(abs);
  if (!isInside(repoReal, real) || isInside(join(repoReal, LORE_DIR), real)) {
    throw new LoreError('invalid', `${shown} is a symlink leading outside the docs roots (to ${real})`, {
      hint: allowed,
    });
  }
  const rootDirs = scope.roots.flatMap((pattern) => {
    const normalized = normalizeDocsRoot(pattern);
    if (normalized === undefined || normalized.split('/').includes(LORE_DIR)) return [];
    return expandDocsRoot(scope.repoRoot, normalized);
  });
  const lexicalRoot = rootDirs.find((dir) => isInside(resolve(scope.repoRoot, dir), abs));
  const realRoot = rootDirs.find((dir) => isInside(realpathSync(resolve(scope.repoRoot, dir)), real));
  if (lexicalRoot === undefined) {
    throw new LoreError('invalid', `${shown} is outside the docs roots (${describeRoots(scope)})`, {
      hint: allowed,
    });
  }
  if (realRoot === undefined) {
    throw new LoreError('invalid', `${shown} is a symlink leading outside the docs roots (to ${real})`, {
      hint: allowed,
    });
  }
  if (!statSync(real).isFile() || !DOC_EXTENSIONS.test(abs)) {
    throw new LoreError('invalid', `${shown} is not a Markdown file (.md, .markdown, .mdx)`, {
      hint: allowed,
    });
  }
  const text = readFileSync(real, 'utf8');
  const path = relative(scope.repoRoot, abs).split('\\').join('/');
  const { indexDoc } = await import('../../core/docs/index-doc.js');
  const indexed = indexDoc(path, lexicalRoot, text, { taskPrefixes: scope.taskPrefixes, file: shown });
  return { doc: { ...indexed.record, problems: indexed.problems }, text, body: indexed.body, file: shown };
}

/** Cosine similarities of the docs to the query (see store/embed/doc-vectors.ts), and their share. */
export type SemanticDocScores = { scores: ReadonlyMap<string, number>; weight: number };

export type DocSearchHit = ListedDoc & { score: number; matchedBy: string[]; parts?: Record<string, number> };

export type DocSearch = {
  query: string;
  mode: 'lexical' | 'hybrid';
  /** Why a hybrid search fell back to lexical scores only. */
  fallback?: string;
  results: DocSearchHit[];
};

/** The lexical scorer as a provider (summary, tags, type; see core/docs/score-docs.ts). */
export const LEXICAL_DOC_SCORER: DocScorer = {
  name: 'lexical',
  score: (query, records) =>
    Promise.resolve(new Map(scoreDocs(records, query).map((hit) => [hit.record.path, hit.score]))),
};

/** The body index (FTS5 BM25 over `lore docs index`'s bodies) as a provider. */
export function createBodyDocScorer(index: DocsIndex): DocScorer {
  return { name: 'body', score: (query) => Promise.resolve(index.searchBodies(query)) };
}

export async function searchDocs(
  scope: DocsScope,
  query: string,
  options: { hybrid?: boolean; limit?: number; semantic?: SemanticDocScores } = {},
): Promise<DocSearch> {
  const { docs } = await loadAll(scope);
  const byPath = new Map(docs.map((doc) => [doc.record.path, doc]));
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  const lexicalHits = scoreDocs(
    docs.map((doc) => doc.record),
    query,
  );
  const lexical = (fallback?: string): DocSearch => ({
    query,
    mode: 'lexical',
    ...(fallback === undefined ? {} : { fallback }),
    results: lexicalHits.slice(0, limit).flatMap((hit) => {
      const doc = byPath.get(hit.record.path);
      return doc === undefined ? [] : [{ ...toListed(doc), score: hit.score, matchedBy: hit.matchedBy }];
    }),
  });
  if (options.hybrid !== true) return lexical();
  const index = openDocsIndex(join(scope.cacheDir, DOCS_DB_FILE));
  try {
    const semantic = options.semantic;
    if (!index.hasBodies() && semantic === undefined) {
      return lexical('no body index yet: run `lore docs index` to build it; showing lexical results only');
    }
    const records = docs.map((doc) => doc.record);
    // with embeddings, meaning takes its share (embeddings.weight) and the rest splits as before
    const rest = semantic === undefined ? 1 : 1 - semantic.weight;
    const scorers: { scorer: DocScorer; weight: number }[] = [
      { scorer: LEXICAL_DOC_SCORER, weight: (index.hasBodies() ? 1 - scope.hybridWeight : 1) * rest },
      ...(index.hasBodies()
        ? [{ scorer: createBodyDocScorer(index), weight: scope.hybridWeight * rest }]
        : []),
      ...(semantic === undefined
        ? []
        : [
            {
              scorer: { name: 'semantic', score: () => Promise.resolve(semantic.scores) },
              weight: semantic.weight,
            },
          ]),
    ];
    const inputs = await Promise.all(
      scorers.map(async ({ scorer, weight }) => ({
        name: scorer.name,
        weight,
        scores: new Map([...(await scorer.score(query, records))].filter(([path]) => byPath.has(path))),
      })),
    );
    const lexicalMatched = new Map(lexicalHits.map((hit) => [hit.record.path, hit.matchedBy]));
    const results = blendDocScores(inputs)
      .slice(0, limit)
      .flatMap((hit) => {
        const doc = byPath.get(hit.path);
        if (doc === undefined) return [];
        const matchedBy = [
          ...(lexicalMatched.get(hit.path) ?? []),
          ...((hit.parts.body ?? 0) > 0 ? ['body'] : []),
          ...((hit.parts.semantic ?? 0) > 0 ? ['semantic'] : []),
        ];
        return [{ ...toListed(doc), score: Number(hit.score.toFixed(6)), matchedBy, parts: hit.parts }];
      });
    return { query, mode: 'hybrid', results };
  } finally {
    index.close();
  }
}

export type DocsIndexResult = BodyIndexReport & { roots: WalkedRoot[] };

/** `lore docs index`: the body-level index for `lore search --kind doc --hybrid`. */
export async function indexDocs(scope: DocsScope, force: boolean): Promise<DocsIndexResult> {
  const { docs, roots } = await loadAll(scope);
  const index = openDocsIndex(join(scope.cacheDir, DOCS_DB_FILE));
  try {
    return { ...index.indexBodies(docs, force), roots };
  } finally {
    index.close();
  }
}
