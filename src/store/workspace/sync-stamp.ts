/**
 * What the last full `lore sync` built from, so the next one can tell, without building, that a
 * rebuild would write the same index and manifest (`cache/sync.json`):
 *
 *   aggregate  the index's full-scan aggregate of every lesson and votes file (scan-tiers.ts)
 *   revision   the manifest head's revision (any patch or other full build changes it)
 *   docs       a digest of the project docs' paths and file signatures
 *
 * Reading it loads neither YAML nor zod: a sync with nothing changed stats files and reads three
 * small ones.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ManifestHead } from '../../core/inject/types.js';
import { DOCS_DEFAULTS } from '../../core/docs/docs-defaults.js';
import { walkDocsCached } from '../docs/docs-walker.js';
import { DOCS_WALK_FILE } from '../docs/docs-index.js';
import { fileSignature } from '../fs/file-signature.js';
import { writeFileAtomic } from '../fs/fs-atomic.js';
import { readManifestHead, sourcePaths, staleSources } from '../hook-state/manifest-files.js';
import type { Workspace } from './workspace.js';
import { readStack } from './read-stack.js';

const SYNC_STAMP_FILE = 'sync.json';
const STAMP_VERSION = 1;

type SyncStamp = { version: number; aggregate: string; revision: string; docs: string };

/** Written after a full build: `aggregate` as the index's rebuild scanned the files. */
export function writeSyncStamp(ws: Workspace, aggregate: string, head: ManifestHead): void {
  if (head.revision === undefined) return;
  const stamp: SyncStamp = {
    version: STAMP_VERSION,
    aggregate,
    revision: head.revision,
    docs: docsDigest(ws),
  };
  try {
    writeFileAtomic(join(ws.cacheDir, SYNC_STAMP_FILE), JSON.stringify(stamp));
  } catch {
    // without it the next sync builds again: only slower
  }
}

/**
 * The manifest head when the last full sync's build still holds: the index's files scan to
 * `aggregate` as they did then, the manifest is the one it wrote (same revision, over the same
 * source files, none changed since: lesson folders, configs, generation stamps), and the docs and
 * the stack are the same. Undefined when something must be built again. What a rebuild would
 * change without any file changing is ignored, as the hook's background check ignores it: the
 * time (vote scores decay, so ranks can move) and `LORE_VOTE_HALF_LIFE_DAYS`.
 */
export function unchangedSinceSync(ws: Workspace, aggregate: string): ManifestHead | undefined {
  let stamp: SyncStamp;
  try {
    stamp = JSON.parse(readFileSync(join(ws.cacheDir, SYNC_STAMP_FILE), 'utf8')) as SyncStamp;
  } catch {
    return undefined;
  }
  if (stamp?.version !== STAMP_VERSION || stamp.aggregate !== aggregate) return undefined;
  const head = readManifestHead(ws.cacheDir);
  if (head === undefined || head.revision !== stamp.revision) return undefined;
  if (head.projectRoot !== (ws.projectRoot ?? null)) return undefined;
  const paths = sourcePaths(ws.tiers.map((tier) => tier.layout.dir));
  const sameSources =
    head.sources.length === paths.length &&
    head.sources.every((source, i) => source.path === paths[i]) &&
    staleSources(head).length === 0;
  if (!sameSources || stamp.docs !== docsDigest(ws)) return undefined;
  return readStack(ws.projectRoot ?? null).join('\n') === head.stack.join('\n') ? head : undefined;
}

/** The project docs under the configured roots: each one's path and file signature. */
function docsDigest(ws: Workspace): string {
  if (ws.projectRoot === undefined) return '';
  const roots = ws.config.docs?.roots ?? DOCS_DEFAULTS.roots;
  // node:crypto on first use, as in fs-atomic.ts
  const hash = process.getBuiltinModule('node:crypto').createHash('sha1');
  try {
    const walk = walkDocsCached(ws.projectRoot, roots, join(ws.cacheDir, DOCS_WALK_FILE));
    for (const doc of walk.docs) hash.update(`${doc.path}|${fileSignature(doc.abs)}\n`);
  } catch {
    return '?';
  }
  return hash.digest('hex');
}
