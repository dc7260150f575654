/**
 * Brings the index up to date with the files: the freshness scan (scan-tiers.ts) first, and only
 * when its aggregate changed, the changed files' rows (write-file-rows.ts, loaded then).
 */
import type { TierStore } from '../lessons/tier-store.js';
import type { SqlDatabase } from '../sqlite/sqlite.js';
import { INDEX_TABLES } from './index-schema.js';
import { encodeLiteForm, hasLiteForm, liteAggregate } from './lite-aggregate.js';
import type { RefreshReport } from './index-types.js';
import type { ParsedFile } from './parse-worker.js';
import { freshnessContext, FULL_SCAN_MS, parseListings, scanTiers, signaturesOf } from './scan-tiers.js';
import type { Scan } from './scan-tiers.js';
import type {
  forgetFileRows as ForgetFileRows,
  RowWriter,
  writeFileRows as WriteFileRows,
} from './write-file-rows.js';

/** What one index instance carries from refresh to refresh. */
export type RefreshState = {
  /** What the last refresh saw. */
  lastScan: Scan | undefined;
  /** The next refresh stats every votes file (after a write, and when a lite scan saw a change). */
  fullScanNext: boolean;
  /** Glob regexes by glob, for the row writer. */
  globs: Map<string, string>;
};

export type RefreshContext = {
  db: SqlDatabase;
  tiers: readonly TierStore[];
  displayPath: (path: string) => string;
  state: RefreshState;
};

/** What the lite check from the stored form reads. */
const FORM_KEYS = "('aggregate', 'fullScanAt', 'context', 'liteForm', 'liteFormOf')";
/** What a scan reads: the listings and votes a lite scan goes by, not the form (only whose it is). */
const META_KEYS = "('aggregate', 'voted', 'listings', 'fullScanAt', 'context', 'liteFormOf')";

/** A meta value as text (the stored form, a BLOB, reads as an ArrayBuffer). */
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function readMeta(db: SqlDatabase, keys: string): Map<string, unknown> {
  const rows = db.all<{ key: string; value: unknown }>(`SELECT key, value FROM meta WHERE key IN ${keys}`);
  return new Map(rows.map((row) => [row.key, row.value]));
}

/**
 * `force`: every file is parsed again into emptied tables. `look`: a full scan that writes rows only
 * when nothing changed (the scan remembered); a change is reported (`fresh: false`, nothing
 * parsed) and left for the next refresh, which scans in full.
 */
export async function refreshIndex(
  ctx: RefreshContext,
  force: boolean,
  look = false,
): Promise<RefreshReport> {
  const { db, tiers, state } = ctx;
  const context = freshnessContext(tiers);
  const nowMs = Date.now();
  // A lite check when the last full scan is recent and the context it saw still holds.
  const mayBeLite = !force && !look && !state.fullScanNext;
  const liteWanted = (meta: Map<string, unknown>) =>
    mayBeLite && meta.get('context') === context && nowMs - Number(meta.get('fullScanAt')) < FULL_SCAN_MS;
  // From the stored form, without a string per lesson (lite-aggregate.ts), and without reading
  // the listings (0.5-1 ms of a read at 10,000 lessons); when there is none (a store with stray
  // files, an index an older lore wrote) or it cannot tell, scanTiers below checks from the
  // listings as before.
  const formMeta = mayBeLite ? readMeta(db, FORM_KEYS) : new Map<string, unknown>();
  const form = formMeta.get('liteForm');
  // a form another full scan left (an older lore's wrote only the aggregate) is not used
  const formCurrent = formMeta.has('aggregate') && formMeta.get('liteFormOf') === formMeta.get('aggregate');
  const quick =
    liteWanted(formMeta) && formCurrent && (form instanceof ArrayBuffer || form instanceof Uint8Array)
      ? liteAggregate(tiers, form)
      : undefined;
  if (quick !== undefined) {
    state.fullScanNext = quick !== text(formMeta.get('aggregate'));
    if (state.fullScanNext) return refreshIndex(ctx, force);
    state.lastScan = { tiers: [], legacy: [], aggregate: quick, lite: true, voted: [], listings: [] };
    return { parsed: 0, removed: 0, rebuilt: false, fresh: true, legacyFiles: [], scan: 'lite' };
  }
  // read again, all of it in one statement: what the scan goes by is what the aggregate was from
  const meta = readMeta(db, META_KEYS);
  const listingsText = text(meta.get('listings'));
  const votedText = text(meta.get('voted'));
  const storedAggregate = text(meta.get('aggregate'));
  const listings = parseListings(listingsText, tiers.length);
  const lite = liteWanted(meta) && votedText !== undefined && listings !== undefined;
  state.fullScanNext = false;
  const scan = scanTiers(
    tiers,
    lite && listings !== undefined ? { voted: new Set(votedText?.split('\n')), listings } : undefined,
  );
  state.lastScan = scan;
  const remember = () => rememberScan(db, scan, context, nowMs, false);
  if (!force && storedAggregate === scan.aggregate) {
    // the same files as the scan that wrote the form, if it was this one's: no need to write it again
    const formKept = meta.get('liteFormOf') === scan.aggregate;
    if (!lite) db.transaction(() => rememberScan(db, scan, context, nowMs, formKept));
    const report = { parsed: 0, removed: 0, rebuilt: false, fresh: true, legacyFiles: scan.legacy };
    return { ...report, scan: lite ? 'lite' : 'full' };
  }
  if (lite) {
    // Something changed: look at everything, votes files included.
    state.fullScanNext = true;
    return refreshIndex(ctx, force);
  }
  if (look) {
    state.fullScanNext = true;
    return { parsed: 0, removed: 0, rebuilt: false, fresh: false, legacyFiles: scan.legacy, scan: 'full' };
  }
  const rows = await import('./write-file-rows.js');
  const writer: RowWriter = {
    db,
    tiers,
    displayPath: ctx.displayPath,
    preLoaded: await loadAhead(ctx, scan, force),
    globs: state.globs,
  };
  const { parsed, removed } = writeChanges(rows, writer, scan, force, remember);
  return { parsed, removed, rebuilt: force, fresh: false, legacyFiles: scan.legacy, scan: 'full' };
}

/**
 * In one transaction: the rows of every file whose signature changed (all of them with `force`),
 * the files that are gone forgotten, and the scan remembered. Nothing when another process has
 * just done the same.
 */
function writeChanges(
  {
    writeFileRows,
    forgetFileRows,
  }: { writeFileRows: typeof WriteFileRows; forgetFileRows: typeof ForgetFileRows },
  writer: RowWriter,
  scan: Scan,
  force: boolean,
  remember: () => void,
): { parsed: number; removed: number } {
  const { db } = writer;
  let parsed = 0;
  let removed = 0;
  db.transaction(() => {
    const again = db.get<{ value: string }>("SELECT value FROM meta WHERE key = 'aggregate'")?.value;
    if (!force && again === scan.aggregate) return;
    if (force) for (const table of INDEX_TABLES) db.exec(`DELETE FROM ${table}`);
    const known = new Map(
      db.all<{ path: string; sig: string }>('SELECT path, sig FROM files').map((r) => [r.path, r.sig]),
    );
    // Nothing indexed yet (a rebuild, a new database): no row needs looking up or deleting.
    const empty = known.size === 0;
    const current = new Set<string>();
    for (const signature of signaturesOf(scan)) {
      current.add(signature.path);
      if (known.get(signature.path) === signature.sig) continue;
      writeFileRows(writer, signature, empty);
      db.run('INSERT OR REPLACE INTO files(path, sig) VALUES (?, ?)', signature.path, signature.sig);
      parsed += 1;
    }
    for (const path of known.keys()) {
      if (current.has(path)) continue;
      forgetFileRows(db, path);
      db.run('DELETE FROM files WHERE path = ?', path);
      removed += 1;
    }
    db.run("INSERT OR REPLACE INTO meta(key, value) VALUES ('aggregate', ?)", scan.aggregate);
    db.run("INSERT OR REPLACE INTO meta(key, value) VALUES ('indexedAt', ?)", new Date().toISOString());
    remember();
  });
  return { parsed, removed };
}

/**
 * What a lite scan needs from this full one (see ScanHint, and lite-aggregate.ts's form with the
 * aggregate of the scan that wrote it; removed when this scan cannot have one), and when it ran.
 * `formKept`: the stored form is this scan's already (the same aggregate: the same files), unless
 * the scan saw what a form cannot hold (a stray or legacy file, which the aggregate leaves out):
 * 2-7 ms of encoding and 390 KB written saved at 10,000 lessons, on every `lore sync` with
 * nothing changed.
 */
function rememberScan(db: SqlDatabase, scan: Scan, context: string, nowMs: number, formKept: boolean): void {
  db.run("INSERT OR REPLACE INTO meta(key, value) VALUES ('voted', ?)", scan.voted.join('\n'));
  db.run("INSERT OR REPLACE INTO meta(key, value) VALUES ('listings', ?)", JSON.stringify(scan.listings));
  const kept = formKept && hasLiteForm(scan);
  const form = kept ? undefined : encodeLiteForm(scan);
  if (kept) {
    // as stored
  } else if (form === undefined) {
    db.run("DELETE FROM meta WHERE key IN ('liteForm', 'liteFormOf')");
  } else {
    db.run("INSERT OR REPLACE INTO meta(key, value) VALUES ('liteForm', ?)", form);
    db.run("INSERT OR REPLACE INTO meta(key, value) VALUES ('liteFormOf', ?)", scan.aggregate);
  }
  db.run("INSERT OR REPLACE INTO meta(key, value) VALUES ('fullScanAt', ?)", String(nowMs));
  db.run("INSERT OR REPLACE INTO meta(key, value) VALUES ('context', ?)", context);
}

/**
 * Many changed lesson files (a sync, a first index, a big pull): read and load them on every
 * core first. The transaction checks again what changed and loads anything missed inline.
 */
async function loadAhead(
  { db, displayPath }: RefreshContext,
  scan: Scan,
  force: boolean,
): Promise<ReadonlyMap<string, ParsedFile>> {
  const known = new Map(
    db.all<{ path: string; sig: string }>('SELECT path, sig FROM files').map((r) => [r.path, r.sig]),
  );
  const stale = signaturesOf(scan).filter(
    (signature) => signature.kind === 'lesson' && (force || known.get(signature.path) !== signature.sig),
  );
  const { parseInWorkers } = await import('./parse-in-workers.js');
  const loaded = await parseInWorkers(
    stale.map(({ path, dir }) => ({ path, shown: displayPath(path), tier: dir.tier, id: dir.id })),
  );
  return loaded ?? new Map();
}
