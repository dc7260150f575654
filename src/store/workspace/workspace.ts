/**
 * A workspace: the project tier (if any), the user tier, the merged config, and the index over
 * both. Every command starts here.
 */
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { LoreError } from '../../core/errors.js';
import type { Problem } from '../../core/errors.js';
import { CONFIG_FINGERPRINT } from '../../core/lesson/constants.js';
import type { Config, Tier } from '../../core/lesson/schema.js';
import { openLessonIndex } from '../index/lesson-index.js';
import type { LessonIndex, RefreshReport } from '../index/lesson-index.js';
import { recoverWrites } from '../fs/journal.js';
import { findProjectRoot, LORE_DIR, orgTierDir, resolveLoreHome, tierLayout } from '../fs/paths.js';
import { writeFileAtomic } from '../fs/fs-atomic.js';
import { fileSignature } from '../fs/file-signature.js';
import { sourcePaths, stampSources } from '../hook-state/manifest-files.js';
import type { SourceStamp } from '../../core/inject/types.js';
import { createTierStore } from '../lessons/tier-store.js';
import type { TierStore } from '../lessons/tier-store.js';
import { recordPendingVote } from '../org-client/org-local.js';
import { voteHalfLifeDays } from './vote-half-life.js';

export type WorkspaceOptions = {
  cwd: string;
  /** `--root DIR`: the repository root, overriding the upward search for `.lore/`. */
  root?: string;
  env: NodeJS.ProcessEnv;
  home?: string;
  /** Where a write's non-fatal trouble (a view that could not be rewritten) is told; default stderr. */
  warn?: (line: string) => void;
};

export type Workspace = {
  cwd: string;
  /** The repository root holding `.lore/`, when there is a project. */
  projectRoot: string | undefined;
  project: TierStore | undefined;
  user: TierStore;
  /** The organisation tier (`lore pull`), when it has been pulled: read-only. */
  org: TierStore | undefined;
  /** Project first, then user, then org: on a conflict the earlier tier's lesson wins. */
  tiers: TierStore[];
  config: Config;
  configProblems: Problem[];
  halfLifeDays: number;
  index: LessonIndex;
  /** Where multi-file transactions and locks live. */
  cacheDir: string;
  /** Paths shown to people: repo-relative inside the project, `~/...` for the user tier. */
  displayPath(path: string): string;
  /** The store of a tier; the project tier needs a `.lore/` directory. */
  store(tier: Tier): TierStore;
  /** Refreshes the index and refuses the legacy flat layout. */
  ready(): Promise<RefreshReport>;
  /** Where a write's non-fatal trouble (a view that could not be rewritten) is told; default stderr. */
  warn(line: string): void;
  /**
   * The manifest's source stamps before this process wrote, then as its last write left them: a
   * patch applies only to a manifest that was current (see after-write.ts and manifest-patch.ts).
   */
  manifestSources: SourceStamp[];
  close(): void;
};

export async function openWorkspace(options: WorkspaceOptions): Promise<Workspace> {
  const loreHome = resolveLoreHome(options.env, options.home);
  const cwd = resolve(options.cwd);
  let projectRoot: string | undefined;
  if (options.root !== undefined) {
    projectRoot = resolve(cwd, options.root);
    const dir = join(projectRoot, LORE_DIR);
    if (!(statSync(dir, { throwIfNoEntry: false })?.isDirectory() ?? false)) {
      throw new LoreError('no-project', `${dir} does not exist`, {
        hint: `run \`lore init --root ${options.root}\` to create it`,
      });
    }
  } else {
    projectRoot = findProjectRoot(cwd, loreHome);
  }
  const project =
    projectRoot === undefined ? undefined : createTierStore('project', join(projectRoot, LORE_DIR));
  const user = createTierStore('user', loreHome);
  const orgDir = orgTierDir(loreHome);
  const org = existsSync(tierLayout(orgDir).lessonsDir)
    ? readOnly(createTierStore('org', orgDir))
    : undefined;
  const ownTiers = project ? [project, user] : [user];
  const tiers = org ? [...ownTiers, org] : ownTiers;
  const cacheDir = (project ?? user).layout.cacheDir;
  const home = options.home ?? options.env.HOME;

  const displayPath = (path: string): string => {
    if (projectRoot !== undefined) {
      const rel = relative(projectRoot, path);
      if (!rel.startsWith('..') && !rel.startsWith('/')) return rel;
    }
    if (home && path.startsWith(`${home}/`)) return `~/${path.slice(home.length + 1)}`;
    return path;
  };

  const { config, problems: configProblems } = await loadConfig(ownTiers, cacheDir, displayPath);
  const halfLifeDays = voteHalfLifeDays(options.env, config);
  const index = openLessonIndex(join(cacheDir, 'index.db'), tiers, displayPath);

  let readyReport: RefreshReport | undefined;
  const ws: Workspace = {
    cwd,
    projectRoot,
    project,
    user,
    org,
    tiers,
    config,
    configProblems,
    halfLifeDays,
    index,
    cacheDir,
    displayPath,
    warn: options.warn ?? ((line) => process.stderr.write(`${line}\n`)),
    manifestSources: stampSources(sourcePaths(tiers.map((tier) => tier.layout.dir))),
    store(tier) {
      if (tier === 'user') return user;
      if (tier === 'org') return org ?? readOnly(createTierStore('org', orgDir));
      if (!project) {
        throw new LoreError('no-project', `no ${LORE_DIR}/ directory found from ${cwd} upward`, {
          hint: 'run `lore init` at your repository root, or pass --tier user to use your personal lessons',
        });
      }
      return project;
    },
    async ready() {
      if (readyReport) return readyReport;
      // A replayed change of a process that died before updating the manifest: build in full.
      const kept = (path: string) =>
        ws.warn(
          `lore: ${displayPath(path)} changed after an interrupted write (a promote, demote or supersede killed mid-way); kept as it is, the older text from the journal not applied. Check it with \`lore check\` and \`lore list --status any\``,
        );
      if (recoverWrites(join(cacheDir, 'journal'), kept) > 0) ws.manifestSources = [];
      // A fresh workspace's index refreshes here; one just rebuilt (`lore sync`) is not scanned again.
      const report = await index.settle();
      if (report.legacyFiles.length > 0) {
        const shown = report.legacyFiles.slice(0, 3).map(displayPath).join(', ');
        throw new LoreError(
          'legacy-layout',
          `found ${report.legacyFiles.length} lesson file(s) in the old flat layout (${shown}${report.legacyFiles.length > 3 ? ', ...' : ''})`,
          { hint: 'run `lore migrate-layout` to move each into lessons/<id>/lesson.yaml' },
        );
      }
      readyReport = report;
      return report;
    },
    close() {
      index.close();
    },
  };
  return ws;
}

/**
 * The org tier as lore's writers see it: every read works, every write but a vote is refused before
 * it starts.
 */
function readOnly(store: TierStore): TierStore {
  const refuse = (): never => {
    throw new LoreError('usage', 'the org tier is read-only here: it mirrors the organisation server', {
      hint: 'change organisation lessons on the server (a user-tier copy through `lore push`, or the dashboard of `lore serve --org`), then `lore pull`',
    });
  };
  return {
    ...store,
    createLesson: refuse,
    writeLessonText: refuse,
    createLessonWithId: refuse,
    // a vote waits in pending-votes.jsonl for `lore push`; the mirror shows it so ranking counts it now
    appendVote(id, vote) {
      const fresh = recordPendingVote(store.layout.dir, id, vote);
      return store.appendVote(id, vote) || fresh;
    },
  };
}

type CachedConfig = { key: string; config: Config; problems: Problem[] };

/**
 * The user config, then the project config over it. Parsing YAML and validating costs more than
 * a whole fresh query, so the result is cached by the files' signatures and the config's
 * fingerprint (a config cached by a lore with other config keys is parsed again).
 */
async function loadConfig(
  tiers: readonly TierStore[],
  cacheDir: string,
  displayPath: (path: string) => string,
): Promise<{ config: Config; problems: Problem[] }> {
  const files = [...tiers].reverse().map((tier) => tier.layout.configFile);
  const key = [CONFIG_FINGERPRINT, ...files.map((file) => `${file}:${fileSignature(file)}`)].join('|');
  const cachePath = join(cacheDir, 'config.json');
  try {
    const cached = JSON.parse(readFileSync(cachePath, 'utf8')) as CachedConfig;
    if (cached.key === key) return cached;
  } catch {
    // no cache yet, or unreadable: parse below
  }
  const { parseConfigLayers } = await import('./config-file.js');
  const result = parseConfigLayers(files, displayPath);
  try {
    mkdirSync(cacheDir, { recursive: true });
    writeFileAtomic(cachePath, JSON.stringify({ key, ...result }));
  } catch {
    // a read-only cache only costs speed
  }
  return result;
}
