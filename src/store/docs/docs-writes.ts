/**
 * The docs verbs that write: `lore docs add` (a root in config.yaml, through the YAML document
 * model) and `lore docs migrate` (frontmatter backfilled, or a unified diff with --dry-run).
 * Store functions returning data, like docs-actions.ts; loaded only by the verbs that write.
 */
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { isMap, isSeq, parseDocument } from 'yaml';
import type { Document } from 'yaml';
import { LoreError } from '../../core/errors.js';
import type { Problem } from '../../core/errors.js';
import { planDocMigration } from '../../core/docs/plan-doc-migration.js';
import type { DocMigration } from '../../core/docs/plan-doc-migration.js';
import type { DocsScope } from './docs-actions.js';
import { normalizeDocsRoot, walkDocs } from './docs-walker.js';
import type { WalkedDoc } from './docs-walker.js';
import { writeFileAtomic, writeFileThroughLinks } from '../fs/fs-atomic.js';
import { LORE_DIR } from '../fs/paths.js';

function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

export type DocsRootAdded = { root: string; added: boolean; roots: string[]; configFile: string };

/**
 * The directory's stat, undefined when it does not exist; a path no file system can hold (a NUL
 * character, a name past the system's length limit: an agent's argument) is the caller's error,
 * named, not an internal one.
 */
function statPath(abs: string, shown: string): Stats | undefined {
  // shown shortened, its control characters made visible: it goes into a message
  // eslint-disable-next-line no-control-regex -- the control characters are what is replaced
  const named = `${shown.slice(0, 120).replace(/[\u0000-\u001f\u007f]/g, '\uFFFD')}${shown.length > 120 ? '...' : ''}`;
  const unusable = (why: string) =>
    new LoreError('invalid', `${named} is not a usable path: ${why}`, {
      hint: 'pass a directory of the repository, such as docs/ or handbook/',
    });
  if (abs.includes('\u0000')) throw unusable('it holds a NUL character');
  try {
    return statSync(abs, { throwIfNoEntry: false });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENAMETOOLONG') throw unusable('a name in it is too long');
    throw error;
  }
}

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
  const stat = statPath(abs, shown);
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
  /** Docs left alone because their bytes are not UTF-8 (rewriting them would lose those bytes). */
  notUtf8: string[];
  /** Problems left for a person (a frontmatter lore could not read is never rewritten). */
  problems: Problem[];
};

/**
 * The walked docs, one per file on disk: a symlinked doc (`docs/deploy.md -> runbooks/deploy.md`)
 * is walked under both paths, and each path infers another type (context, runbook). Planning both
 * gave the dry run two diffs and let the real run write the first into the one file (the link's
 * `type: context` in a runbook). The file is planned once, under its own path when the walk found
 * it there, else under the first path that reaches it.
 */
export function oneDocPerFile(docs: readonly WalkedDoc[], repoRoot: string): WalkedDoc[] {
  let repoReal: string;
  try {
    repoReal = realpathSync(repoRoot);
  } catch {
    return [...docs];
  }
  const chosen = new Map<string, WalkedDoc>();
  for (const doc of docs) {
    let real: string;
    try {
      real = realpathSync(doc.abs);
    } catch {
      continue;
    }
    const own = real === join(repoReal, ...doc.path.split('/'));
    if (!chosen.has(real) || own) chosen.set(real, doc);
  }
  const kept = new Set(chosen.values());
  return docs.filter((doc) => kept.has(doc));
}

/** The file's text when its bytes are UTF-8 (decoding them back gives the same bytes), else undefined. */
function utf8Text(bytes: Buffer): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** `lore docs migrate`: backfills frontmatter; `dryRun` writes nothing and returns unified diffs. */
export function migrateDocs(scope: DocsScope, dryRun: boolean): DocsMigration {
  const walk = walkDocs(scope.repoRoot, scope.roots);
  const changed: MigratedDoc[] = [];
  const problems: Problem[] = [];
  const notUtf8: string[] = [];
  let unchanged = 0;
  for (const doc of oneDocPerFile(walk.docs, scope.repoRoot)) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(doc.abs);
    } catch {
      continue;
    }
    const text = utf8Text(bytes);
    if (text === undefined) {
      // decoding would turn each stray byte into U+FFFD, and writing that back destroys them
      problems.push({
        file: scope.displayPath(doc.abs),
        message:
          'is not UTF-8 text; left alone (convert it to UTF-8, or add its frontmatter by hand in its own encoding)',
        severity: 'warning',
      });
      notUtf8.push(doc.path);
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
      const now = readFileSync(doc.abs);
      if (!now.equals(bytes)) {
        problems.push({
          file: scope.displayPath(doc.abs),
          message: 'changed while migrating; left alone (run `lore docs migrate` again)',
          severity: 'warning',
        });
        continue;
      }
      writeFileThroughLinks(doc.abs, plan.text);
    }
    changed.push({ path: doc.path, added: plan.added, diff, problems: plan.problems });
  }
  return { dryRun, changed, unchanged, notUtf8, problems };
}
