/**
 * The docs verbs as store functions returning data: the CLI (`lore docs`, `lore search --kind
 * doc`) and the MCP tools call these same functions.
 */
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { isMap, isSeq, parseDocument } from 'yaml';
import type { Document } from 'yaml';
import { LoreError } from '../core/errors.js';
import type { Problem } from '../core/errors.js';
import { blendDocScores } from '../core/docs/blend-doc-scores.js';
import type { DocScorer } from '../core/docs/blend-doc-scores.js';
import type { DocRecord, DocType } from '../core/docs/doc-schema.js';
import { indexDoc } from '../core/docs/index-doc.js';
import { defaultConfig } from '../core/lesson/schema.js';
import type { Config } from '../core/lesson/schema.js';
import { planDocMigration } from '../core/docs/plan-doc-migration.js';
import type { DocMigration } from '../core/docs/plan-doc-migration.js';
import { scoreDocs } from '../core/docs/score-docs.js';
import { openDocsIndex } from './docs-index.js';
import type { BodyIndexReport, DocsIndex, LoadedDoc } from './docs-index.js';
import { DOC_EXTENSIONS, expandDocsRoot, normalizeDocsRoot, walkDocs } from './docs-walker.js';
import type { WalkedDoc, WalkedRoot } from './docs-walker.js';
import { writeFileAtomic } from './fs-atomic.js';
import { findRepositoryRoot, LORE_DIR } from './paths.js';
import type { Workspace } from './workspace.js';

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
  const docs = (ws.config.docs as Config['docs'] | undefined) ?? defaultConfig().docs;
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

function withIndex<T>(scope: DocsScope, fn: (index: DocsIndex) => T): T {
  const index = openDocsIndex(join(scope.cacheDir, 'docs.db'));
  try {
    return fn(index);
  } finally {
    index.close();
  }
}

function loadAll(scope: DocsScope, index: DocsIndex): { docs: LoadedDoc[]; roots: WalkedRoot[] } {
  const walk = walkDocs(scope.repoRoot, scope.roots);
  const display = (doc: WalkedDoc): string => scope.displayPath(doc.abs);
  return { docs: index.load(walk.docs, { taskPrefixes: scope.taskPrefixes }, display), roots: walk.roots };
}

export type DocsFilter = { type?: DocType; tags?: readonly string[] };

export type DocsList = { docs: ListedDoc[]; roots: WalkedRoot[]; problems: Problem[] };

/** Every doc under the roots (filters ANDed; tags compared without case), in path order. */
export function listDocs(scope: DocsScope, filter: DocsFilter = {}): DocsList {
  return withIndex(scope, (index) => {
    const { docs, roots } = loadAll(scope, index);
    const tags = (filter.tags ?? []).map((tag) => tag.toLowerCase());
    const kept = docs.filter(
      (doc) =>
        (filter.type === undefined || doc.record.type === filter.type) &&
        tags.every((tag) => doc.record.tags.some((have) => have.toLowerCase() === tag)),
    );
    return { docs: kept.map(toListed), roots, problems: docs.flatMap((doc) => doc.problems) };
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
export function showDoc(scope: DocsScope, input: string, cwd: string): DocView {
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
  const indexed = indexDoc(path, lexicalRoot, text, { taskPrefixes: scope.taskPrefixes, file: shown });
  return { doc: { ...indexed.record, problems: indexed.problems }, text, body: indexed.body, file: shown };
}

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
  options: { hybrid?: boolean; limit?: number } = {},
): Promise<DocSearch> {
  const index = openDocsIndex(join(scope.cacheDir, 'docs.db'));
  try {
    const { docs } = loadAll(scope, index);
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
    if (!index.hasBodies()) {
      return lexical('no body index yet: run `lore docs index` to build it; showing lexical results only');
    }
    const records = docs.map((doc) => doc.record);
    const scorers: { scorer: DocScorer; weight: number }[] = [
      { scorer: LEXICAL_DOC_SCORER, weight: 1 - scope.hybridWeight },
      { scorer: createBodyDocScorer(index), weight: scope.hybridWeight },
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
export function indexDocs(scope: DocsScope, force: boolean): DocsIndexResult {
  return withIndex(scope, (index) => {
    const { docs, roots } = loadAll(scope, index);
    return { ...index.indexBodies(docs, force), roots };
  });
}

export type DocsRootAdded = { root: string; added: boolean; roots: string[]; configFile: string };

/** `lore docs add PATH`: registers a directory as a docs root in the project's config.yaml (idempotent). */
export function addDocsRoot(scope: DocsScope, input: string, cwd: string): DocsRootAdded {
  if (scope.configFile === undefined) {
    throw new LoreError('no-project', `no ${LORE_DIR}/ directory found from ${cwd} upward`, {
      hint: 'run `lore init` at your repository root first: docs roots are kept in .lore/config.yaml',
    });
  }
  const abs = resolve(cwd, input);
  const shown = scope.displayPath(abs);
  if (!isInside(scope.repoRoot, abs)) {
    throw new LoreError('invalid', `${shown} is outside the repository`, {
      hint: 'docs roots are directories inside the repository',
    });
  }
  const rel = relative(scope.repoRoot, abs).split('\\').join('/') || '.';
  if (rel.split('/').includes(LORE_DIR)) {
    throw new LoreError('invalid', `${shown} is under ${LORE_DIR}/, which holds lore's own data`, {
      hint: 'pick a directory of Markdown docs, such as docs/ or handbook/',
    });
  }
  const stat = statSync(abs, { throwIfNoEntry: false });
  if (stat === undefined) {
    throw new LoreError('not-found', `${shown} does not exist`, {
      hint: 'create the directory first, or check the path',
    });
  }
  if (!stat.isDirectory()) {
    throw new LoreError('invalid', `${shown} is a file; a docs root is a directory`, {
      hint: `run \`lore docs add ${relative(cwd, abs.replace(/[\\/][^\\/]*$/, '')) || '.'}\` for its directory`,
    });
  }
  const real = realpathSync(abs);
  const repoReal = realpathSync(scope.repoRoot);
  if (!isInside(repoReal, real) || isInside(join(repoReal, LORE_DIR), real)) {
    throw new LoreError(
      'invalid',
      `${shown} is a symlink leading outside the repository or into ${LORE_DIR}/`,
      {
        hint: 'docs roots are directories inside the repository',
      },
    );
  }
  const configFile = scope.configFile;
  const current = scope.roots.map((root) => normalizeDocsRoot(root));
  if (current.includes(rel)) {
    return { root: rel, added: false, roots: scope.roots, configFile: scope.displayPath(configFile) };
  }
  const text = existsSync(configFile) ? readFileSync(configFile, 'utf8') : '';
  const roots = [...scope.roots, rel];
  writeFileAtomic(configFile, setDocsRoots(text, roots, scope.displayPath(configFile)));
  return { root: rel, added: true, roots, configFile: scope.displayPath(configFile) };
}

/** config.yaml with `docs.roots` set, through the YAML document model (comments and other keys kept). */
export function setDocsRoots(text: string, roots: readonly string[], file: string): string {
  const document: Document = parseDocument(text);
  if (document.errors.length > 0) {
    throw new LoreError(
      'invalid',
      `${file} is not valid YAML: ${document.errors[0]?.message.split('\n')[0] ?? ''}`,
      {
        hint: `fix ${file} first (\`lore check\` shows where)`,
      },
    );
  }
  if (document.contents === null) document.contents = document.createNode({});
  if (!isMap(document.contents)) {
    throw new LoreError('invalid', `${file} is not a mapping of settings`, { hint: `fix ${file} first` });
  }
  const existing = document.getIn(['docs', 'roots'], true);
  if (isSeq(existing)) {
    const have = new Set(existing.items.map((item) => String((item as { value?: unknown }).value ?? item)));
    for (const root of roots) if (!have.has(root)) existing.add(document.createNode(root));
  } else {
    const docs = document.get('docs', true);
    if (docs !== undefined && docs !== null && !isMap(docs)) {
      throw new LoreError('invalid', `${file}: docs must be a mapping (docs: { roots: [...] })`, {
        hint: `fix ${file} first`,
      });
    }
    document.setIn(['docs', 'roots'], document.createNode([...roots], { flow: true }));
  }
  return document.toString({ flowCollectionPadding: false });
}

export type MigratedDoc = { path: string; added: string[]; diff: string; problems: Problem[] };

export type DocsMigration = {
  dryRun: boolean;
  changed: MigratedDoc[];
  unchanged: number;
  /** Problems left for a person (a frontmatter lore could not read is never rewritten). */
  problems: Problem[];
};

/** `lore docs migrate`: backfills frontmatter; `dryRun` writes nothing and returns unified diffs. */
export function migrateDocs(scope: DocsScope, dryRun: boolean): DocsMigration {
  const walk = walkDocs(scope.repoRoot, scope.roots);
  const changed: MigratedDoc[] = [];
  const problems: Problem[] = [];
  let unchanged = 0;
  for (const doc of walk.docs) {
    let text: string;
    try {
      text = readFileSync(doc.abs, 'utf8');
    } catch {
      continue;
    }
    const plan: DocMigration = planDocMigration(doc.path, doc.root, text, {
      taskPrefixes: scope.taskPrefixes,
      file: scope.displayPath(doc.abs),
    });
    problems.push(...plan.problems);
    if (!plan.changed) {
      unchanged += 1;
      continue;
    }
    const diff = createTwoFilesPatch(
      `a/${doc.path}`,
      `b/${doc.path}`,
      text,
      plan.text,
      undefined,
      undefined,
      {
        context: 3,
      },
    );
    if (!dryRun) {
      const now = readFileSync(doc.abs, 'utf8');
      if (now !== text) {
        problems.push({
          file: scope.displayPath(doc.abs),
          message: 'changed while migrating; left alone (run `lore docs migrate` again)',
          severity: 'warning',
        });
        continue;
      }
      writeFileAtomic(realpathSync(doc.abs), plan.text);
    }
    changed.push({ path: doc.path, added: plan.added, diff, problems: plan.problems });
  }
  return { dryRun, changed, unchanged, problems };
}
