/**
 * The project docs the hook manifest offers next to lessons: those whose frontmatter has `paths`,
 * from the docs walk and records caches (parsed only when changed). Synchronous, so both the CLI
 * build and the background rebuilder (lore-manifest.cjs) call it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ManifestDocSource } from '../../core/manifest/build-manifest.js';
import { indexDoc } from '../../core/docs/index-doc.js';
import { DOCS_DEFAULTS } from '../../core/docs/docs-defaults.js';
import type { Config } from '../../core/lesson/schema.js';
import { DOCS_RECORDS_FILE, DOCS_WALK_FILE, loadDocRecordsWith } from '../docs/docs-index.js';
import { walkDocsCached } from '../docs/docs-walker.js';
import { fileSignature } from '../fs/file-signature.js';
import { manifestDir } from '../hook-state/manifest-files.js';

const DOCS_SIGNATURE_FILE = 'docs-signature';

/** What the manifest's docs depend on: each doc with paths, its file signature and its globs. */
export function docsSignature(docs: readonly ManifestDocSource[]): string {
  // node:crypto on first use, as in fs-atomic.ts
  const hash = process.getBuiltinModule('node:crypto').createHash('sha1');
  for (const doc of docs) hash.update(`${doc.path}|${doc.sig}|${doc.paths.join(',')}\n`);
  return hash.digest('hex');
}

/** Written with each full build: the background check compares it to notice edited docs. */
export function writeDocsSignature(cacheDir: string, signature: string): void {
  writeFileSync(join(manifestDir(cacheDir), DOCS_SIGNATURE_FILE), `${signature}\n`);
}

export function readDocsSignature(cacheDir: string): string | undefined {
  try {
    return readFileSync(join(manifestDir(cacheDir), DOCS_SIGNATURE_FILE), 'utf8').trim();
  } catch {
    return undefined;
  }
}

export function manifestDocs(
  projectRoot: string | null,
  cacheDir: string,
  config: Config,
): ManifestDocSource[] {
  if (projectRoot === null) return [];
  const settings = (config.docs as Config['docs'] | undefined) ?? DOCS_DEFAULTS;
  try {
    const walk = walkDocsCached(projectRoot, settings.roots, join(cacheDir, DOCS_WALK_FILE));
    const loaded =
      loadDocRecordsWith(
        join(cacheDir, DOCS_RECORDS_FILE),
        walk.docs,
        { taskPrefixes: settings.taskPrefixes },
        (doc) => doc.path,
        indexDoc,
      ) ?? [];
    return loaded
      .filter((doc) => doc.record.paths.length > 0)
      .map((doc) => ({
        path: doc.record.path,
        summary: doc.record.summary,
        type: doc.record.type,
        paths: doc.record.paths,
        file: doc.abs,
        sig: fileSignature(doc.abs),
      }));
  } catch {
    // docs are an extra: a tree lore cannot walk never costs the lessons their manifest
    return [];
  }
}
