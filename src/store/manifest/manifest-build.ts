/**
 * Builds the hook manifest and writes it: from an open workspace (the CLI, after every write and
 * on `lore sync`: lessons come parsed from the index) or straight from the lesson files (the
 * background rebuilder the hook starts, which has no SQLite). Both end in `buildManifest`.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { buildManifest } from '../../core/manifest/build-manifest.js';
import { stateOf } from '../../core/manifest/patch-manifest.js';
import type { ManifestSource } from '../../core/manifest/build-manifest.js';
import type { InjectSettings, Manifest, ManifestSkill, SourceStamp } from '../../core/inject/types.js';
import { planSkills } from '../../core/views/plan-skills.js';
import { parseLessonYaml } from '../../core/lesson/lesson-yaml.js';
import { presentSkills, SKILL_FILE, skillsDir } from '../views/skill-files.js';
import type { Config } from '../../core/lesson/schema.js';
import {
  manifestDir,
  markFullCheck,
  sourcePaths,
  stampSources,
  writeManifest,
} from '../hook-state/manifest-files.js';
import { docsSignature, manifestDocs, readDocsSignature, writeDocsSignature } from './manifest-docs.js';
import { lessonSource } from './lesson-source.js';
import {
  contentFiles,
  SIGNATURE_FILE,
  signatureOfFiles,
  withManifestLock,
  writeManifestState,
} from './manifest-patch.js';
import { fileSignature } from '../fs/file-signature.js';
import { findProjectRoot, LORE_DIR, orgTierDir, resolveLoreHome, tierLayout } from '../fs/paths.js';
import { createTierStore, readableLessonText } from '../lessons/tier-store.js';
import type { TierStore } from '../lessons/tier-store.js';
import type { Workspace } from '../workspace/workspace.js';
import { readStack } from '../workspace/read-stack.js';
import { parseConfigLayers } from '../workspace/config-file.js';
import { voteHalfLifeDays } from '../workspace/vote-half-life.js';

export { readStack } from '../workspace/read-stack.js';

export function injectSettings(config: Config): InjectSettings {
  return { ...config.inject };
}

function generationToken(nowMs: number): string {
  // node:crypto on first use, as in fs-atomic.ts
  return `g${nowMs.toString(36)}-${process.getBuiltinModule('node:crypto').randomBytes(4).toString('hex')}`;
}

function readSignature(cacheDir: string): string | undefined {
  try {
    return readFileSync(join(manifestDir(cacheDir), SIGNATURE_FILE), 'utf8').trim();
  } catch {
    return undefined;
  }
}

type BuildTarget = { cacheDir: string; projectRoot: string | null; tierDirs: string[] };

function finish(
  target: BuildTarget,
  lessons: ManifestSource[],
  config: Config,
  nowMs: number,
  sources: ReturnType<typeof stampSources>,
  files: Record<string, string>,
): Manifest {
  const generation = generationToken(nowMs);
  const docs = manifestDocs(target.projectRoot, target.cacheDir, config);
  const manifest = buildManifest({
    lessons,
    skills: manifestSkills(target.projectRoot, config, lessons),
    settings: injectSettings(config),
    scanIntervalHours: config.capture.backgroundIntervalHours,
    stack: readStack(target.projectRoot),
    projectRoot: target.projectRoot,
    sources,
    nowMs,
    generation,
    docs,
  });
  manifest.head.revision = generation;
  const state = stateOf(manifest.blocks, manifest.texts, lessons, {
    generation,
    revision: generation,
    files,
  });
  withManifestLock(target.cacheDir, () => {
    writeManifest(target.cacheDir, manifest);
    writeManifestState(target.cacheDir, state);
    writeFileSync(join(manifestDir(target.cacheDir), SIGNATURE_FILE), `${signatureOfFiles(files)}\n`);
    writeDocsSignature(target.cacheDir, docsSignature(docs));
  });
  markFullCheck(target.cacheDir, nowMs);
  return manifest;
}

/**
 * The aggregated tool skills the hook may point at: those the lessons call for (`aggregate.threshold`)
 * whose SKILL.md lore wrote and still holds (run `lore aggregate`, or set `aggregate.enabled`).
 */
export function manifestSkills(
  projectRoot: string | null,
  config: Config,
  lessons: readonly ManifestSource[],
): Record<string, ManifestSkill> | undefined {
  if (projectRoot === null) return undefined;
  const project = lessons
    .map((source) => source.lesson)
    .filter((lesson) => lesson.tier === 'project' && lesson.status === 'active');
  const plans = planSkills(project, config.aggregate.threshold);
  if (plans.length === 0) return undefined;
  const dir = skillsDir(projectRoot, config.aggregate.dir);
  const present = presentSkills(dir, plans);
  if (present.length === 0) return undefined;
  return Object.fromEntries(
    present.map((plan) => [
      plan.name,
      {
        tool: plan.tool,
        path: relative(projectRoot, join(dir, plan.name, SKILL_FILE)),
        lessons: plan.lessons.length,
      },
    ]),
  );
}

/** The manifest of this workspace, computed from its (refreshed) index, in memory. */
export async function workspaceManifest(ws: Workspace, nowMs: number): Promise<Manifest> {
  await ws.index.refresh();
  const lessons = await workspaceSources(ws, nowMs);
  return buildManifest({
    lessons,
    settings: injectSettings(ws.config),
    stack: readStack(ws.projectRoot ?? null),
    projectRoot: ws.projectRoot ?? null,
    skills: manifestSkills(ws.projectRoot ?? null, ws.config, lessons),
    sources: stampSources(sourcePaths(ws.tiers.map((tier) => tier.layout.dir))),
    nowMs,
    generation: 'explain',
    docs: manifestDocs(ws.projectRoot ?? null, ws.cacheDir, ws.config),
  });
}

async function workspaceSources(ws: Workspace, nowMs: number): Promise<ManifestSource[]> {
  const listed = await ws.index.list({ status: 'active' }, nowMs, ws.halfLifeDays);
  const order = (tier: string) => (tier === 'project' ? 0 : tier === 'user' ? 1 : 2);
  return listed
    .map((item) => ({
      lesson: item.lesson,
      file: item.file,
      sig: fileSignature(item.file),
      voteScore: item.voteScore,
    }))
    .sort((a, b) => order(a.lesson.tier) - order(b.lesson.tier));
}

/**
 * After a write or on sync: the manifest of this workspace, from its index. With `sourcesBefore`
 * (the source stamps taken before the index was last refreshed) the index is used as it is;
 * otherwise the sources are stamped now and the index refreshed.
 */
export async function rebuildWorkspaceManifest(
  ws: Workspace,
  nowMs: number,
  sourcesBefore?: SourceStamp[],
): Promise<Manifest> {
  const target: BuildTarget = {
    cacheDir: ws.cacheDir,
    projectRoot: ws.projectRoot ?? null,
    tierDirs: ws.tiers.map((tier) => tier.layout.dir),
  };
  const sources = sourcesBefore ?? stampSources(sourcePaths(target.tierDirs));
  if (sourcesBefore === undefined) await ws.index.refresh();
  else await ws.index.settle();
  // The content signature of exactly what the index read.
  const files = ws.index.contentParts() ?? contentFiles(ws.tiers);
  const lessons = await workspaceSources(ws, nowMs);
  return finish(target, lessons, ws.config, nowMs, sources, files);
}

/**
 * The background rebuilder: reads the lesson files of the project at `start` (found upward) and
 * the user tier, no index needed. With `onlyIfChanged`, compares every file's signature with the
 * last build first and only touches the check stamp when nothing changed.
 */
export function rebuildManifestFromFiles(options: {
  start: string;
  env: NodeJS.ProcessEnv;
  nowMs: number;
  onlyIfChanged?: boolean;
}): { rebuilt: boolean; lessons: number; signature: string } {
  const loreHome = resolveLoreHome(options.env);
  const projectRoot = findProjectRoot(options.start, loreHome) ?? null;
  const tiers: TierStore[] = [
    ...(projectRoot === null ? [] : [createTierStore('project', join(projectRoot, LORE_DIR))]),
    createTierStore('user', loreHome),
    // the organisation tier, once pulled: a background rebuild must keep its lessons
    ...(existsSync(tierLayout(orgTierDir(loreHome)).lessonsDir)
      ? [createTierStore('org', orgTierDir(loreHome))]
      : []),
  ];
  const cacheDir = (tiers[0] as TierStore).layout.cacheDir;
  const files = contentFiles(tiers);
  const signature = signatureOfFiles(files);
  // The config as a workspace reads it: the user's, then the project's over it.
  const { config } = parseConfigLayers(
    [...tiers]
      .filter((tier) => tier.tier !== 'org')
      .reverse()
      .map((tier) => tier.layout.configFile),
    (path) => path,
  );
  if (
    options.onlyIfChanged === true &&
    readSignature(cacheDir) === signature &&
    // docs are not lesson files: an edited doc (its paths, its summary) shows in their own signature
    readDocsSignature(cacheDir) === docsSignature(manifestDocs(projectRoot, cacheDir, config))
  ) {
    markFullCheck(cacheDir, options.nowMs);
    return { rebuilt: false, lessons: 0, signature };
  }
  const target: BuildTarget = { cacheDir, projectRoot, tierDirs: tiers.map((tier) => tier.layout.dir) };
  const sources = stampSources(sourcePaths(target.tierDirs));
  const halfLifeDays = voteHalfLifeDays(options.env, config);
  const lessons = tiers.flatMap((tier) => activeSources(tier, options.nowMs, halfLifeDays));
  const manifest = finish(target, lessons, config, options.nowMs, sources, files);
  return { rebuilt: true, lessons: manifest.head.lessonCount, signature };
}

/** A tier's active lessons as the manifest takes them, straight from the files (the one loader's rules). */
function activeSources(tier: TierStore, nowMs: number, halfLifeDays: number): ManifestSource[] {
  const lessons: ManifestSource[] = [];
  for (const dir of tier.list().dirs) {
    const text = readableLessonText(tier, dir.id);
    if (text === undefined) continue;
    const source = lessonSource(tier, dir.id, text, parseLessonYaml, nowMs, halfLifeDays);
    if (source !== undefined) lessons.push(source);
  }
  return lessons;
}
