/**
 * The hook manifest, built from lessons of both tiers: every lesson precompiled (glob regex
 * sources, rendered text, rank base) and filed under the literals its scope requires, so one hook
 * call reads and compiles only the lessons whose literals occur in its input.
 */
import type { Lesson } from '../lesson/schema.js';
import { compileGlob } from '../match/glob.js';
import { requiredGlobLiterals } from '../match/glob-literal.js';
import { requiredRegexClauses } from '../match/regex-literals.js';
import {
  expandClauses,
  literalKey,
  packLiteralTable,
  reservedIn,
  toolScope,
} from '../inject/literal-keys.js';
import type { LiteralDomain } from '../inject/literal-keys.js';
import { LANGUAGE_EXTENSIONS } from '../inject/detect-stack.js';
import { encodePostings } from '../inject/postings.js';
import { compareEntries, deniesCalls } from '../inject/rank-matches.js';
import { wordKeys } from '../inject/create-matcher.js';
import { renderLesson } from './render-lesson.js';
import { blockedFixes } from '../inject/guard-fix.js';
import { normalizeTool } from '../inject/tool-names.js';
import { lessonSkill } from '../views/plan-skills.js';
import { MANIFEST_VERSION } from '../inject/types.js';
import type {
  InjectSettings,
  Manifest,
  ManifestLesson,
  ManifestSkill,
  ManifestText,
  SourceStamp,
} from '../inject/types.js';

export type ManifestSource = {
  lesson: Lesson;
  file: string;
  /** The lesson file's signature (src/store/fs/file-signature.ts). */
  sig: string;
  voteScore: number;
};

export type ManifestInput = {
  /** Project tier first: on an id or slug conflict the first one wins. */
  lessons: readonly ManifestSource[];
  settings: InjectSettings;
  /** `capture.backgroundIntervalHours` of the config. */
  scanIntervalHours?: number;
  stack: readonly string[];
  projectRoot: string | null;
  sources: SourceStamp[];
  nowMs: number;
  generation: string;
  /** Lessons per block file; small, since a call reads only the blocks of its top candidates. */
  blockSize?: number;
  /** Project docs with path globs: offered like lessons when a call touches a path they cover. */
  docs?: readonly ManifestDocSource[];
  /** Aggregated tool skills present in the repository (`lore aggregate`), by name. */
  skills?: Record<string, ManifestSkill>;
};

/** A project doc (core/docs) as the manifest takes it: only docs whose frontmatter has `paths`. */
export type ManifestDocSource = {
  /** Repo-relative path of the doc. */
  path: string;
  summary: string;
  type: string;
  paths: readonly string[];
  /** Absolute path, and the file's signature when built. */
  file: string;
  sig: string;
};

/**
 * The id (and session dedup key) of a doc in the manifest: `doc` and 16 hex digits of its path's
 * hash. Session state files claims under ids of `[0-9a-z]`, so the path itself cannot be the key;
 * lesson ids are 10 characters, so the two never meet.
 */
export function docManifestId(path: string): string {
  return `doc${fnv1a(path, 0x811c9dc5)}${fnv1a([...path].reverse().join(''), 0x01000193)}`;
}

function fnv1a(text: string, seed: number): string {
  let hash = seed >>> 0;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

export function isDocId(id: string): boolean {
  return /^doc[0-9a-f]{16}$/.test(id);
}

/** A doc ranks like a priority-3 lesson: a lesson of the same match strength comes first. */
const DOC_SCORE = 40;

/** A doc as a manifest entry: matched by its path globs only (never by prompt words), never a guard. */
export function docEntry(
  doc: ManifestDocSource,
  compile: (glob: string) => string = compileGlob,
): ManifestEntry {
  const id = docManifestId(doc.path);
  const pull = `read it with \`lore docs show ${doc.path}\` or the MCP tool lore_docs_show`;
  const entry: ManifestLesson = {
    id,
    n: 0,
    tier: 'project',
    priority: 3,
    confidence: 1,
    needsReview: false,
    guard: false,
    tools: [],
    commands: [],
    paths: [...doc.paths],
    pathRegexes: doc.paths.map(compile),
    tags: [],
    stack: [],
    words: [],
    score: DOC_SCORE,
    strength: staticStrength({ commands: [], paths: [...doc.paths], tags: [] }),
  };
  const text: ManifestText = {
    slug: doc.path,
    text: `[lore doc ${doc.path}] ${doc.summary} (${doc.type} doc covering this path; ${pull})`,
    summary: `[lore doc ${doc.path}] ${doc.summary}`,
    sig: doc.sig,
    file: doc.file,
  };
  return { lesson: entry, text, ...lessonKeys({ commands: [], paths: [...doc.paths], tags: [], tools: [] }) };
}

const STOP_WORDS = new Set(
  'about after again also always because before being both cannot could does doing done each else even ever every from have having here into just more most much must need never only other over same should since some such than that their them then there these they this those through under until very want were what when where which while will with without would your instead using used uses running'.split(
    ' ',
  ),
);

/** Distinct lowercase words of a summary worth matching a prompt against. */
export function summaryWords(summary: string): string[] {
  const words = summary.toLowerCase().match(/[a-z0-9][a-z0-9_.-]*[a-z0-9]/g) ?? [];
  return [...new Set(words.filter((w) => w.length >= 4 && !STOP_WORDS.has(w) && !/^\d+$/.test(w)))].slice(
    0,
    12,
  );
}

const SEVERITY_SCORE: Record<string, number> = { low: 0, medium: 2, high: 4, critical: 6 };

function rankBase(lesson: Lesson, voteScore: number, stack: readonly string[]): number {
  const langBoost = lesson.tags.some((tag) => tag.startsWith('lang:') && stack.includes(tag.slice(5)))
    ? 5
    : 0;
  return (
    lesson.priority * 10 +
    lesson.confidence * 10 +
    Math.min(voteScore, 5) * 2 +
    (SEVERITY_SCORE[lesson.severity] ?? 0) +
    langBoost
  );
}

/**
 * How a lesson is found on a tool call: literal keys (any satisfied key makes it a candidate; see
 * literal-keys.ts), exact keys (`tool:<name>`), or always (some part of its scope has no usable
 * literal).
 */
export function lessonKeys(
  lesson: Pick<Lesson, 'commands' | 'paths' | 'tags' | 'tools'> & {
    contents?: readonly string[];
    errors?: readonly string[];
  },
): {
  literals: string[];
  keys: string[];
  always: boolean;
} {
  const scope = toolScope(lesson.tools);
  const literals = new Set<string>();
  let always = false;
  const add = (domain: LiteralDomain, clauses: readonly (readonly string[])[]) => {
    const usable = clauses.filter((clause) => clause.every((literal) => !reservedIn(literal)));
    const conjunctions = expandClauses(usable);
    if (conjunctions.length === 0) always = true;
    else for (const conjunction of conjunctions) literals.add(literalKey(scope, domain, conjunction));
  };
  for (const command of lesson.commands) add('c', requiredRegexClauses(command));
  for (const glob of lesson.paths)
    add(
      'p',
      requiredGlobLiterals(glob).map((literal) => [literal]),
    );
  if ((lesson.contents?.length ?? 0) > 0 && lesson.paths.length === 0) {
    // found by the writing tools it is scoped to (its content is checked once it is a candidate)
    const writers = lesson.tools.length > 0 ? lesson.tools.map(normalizeTool) : CONTENT_TOOLS;
    if (writers.some((tool) => tool.includes('*'))) return { literals: [], keys: [], always: true };
    return { literals: always ? [] : [...literals], keys: writers.map((tool) => `tool:${tool}`), always };
  }
  if (lesson.commands.length > 0 || lesson.paths.length > 0) {
    return { literals: always ? [] : [...literals], keys: [], always };
  }
  for (const trigger of tagTriggers(lesson.tags)) add(trigger.domain, [[trigger.literal]]);
  if (literals.size > 0 || always) return { literals: always ? [] : [...literals], keys: [], always };
  // scoped by its errors alone: any call's result may carry one
  if (lesson.tools.length === 0 && (lesson.errors?.length ?? 0) > 0)
    return { literals: [], keys: [], always: true };
  if (lesson.tools.some((tool) => tool.includes('*'))) return { literals: [], keys: [], always: true };
  return { literals: [], keys: lesson.tools.map((tool) => `tool:${normalizeTool(tool)}`), always: false };
}

/** The tools whose calls carry written text (normalized: MultiEdit and Codex patches are `edit`). */
const CONTENT_TOOLS = ['write', 'edit', 'notebookedit'];

/** `tool:pytest` triggers on "pytest" in a command; `lang:python` on a `.py` path. */
export function tagTriggers(tags: readonly string[]): { domain: LiteralDomain; literal: string }[] {
  const out: { domain: LiteralDomain; literal: string }[] = [];
  for (const tag of tags) {
    const [category, value] = [tag.slice(0, tag.indexOf(':')), tag.slice(tag.indexOf(':') + 1)];
    if (category === 'tool' && value.length >= 2) out.push({ domain: 'c', literal: value });
    if (category === 'lang')
      for (const ext of LANGUAGE_EXTENSIONS[value] ?? []) out.push({ domain: 'p', literal: ext });
  }
  return out;
}

/** The strength every tool-call match of a lesson has: see `ManifestLesson.strength`. */
export function staticStrength(
  lesson: Pick<Lesson, 'commands' | 'paths' | 'tags'> & { contents?: readonly string[] },
): number {
  if (lesson.commands.length > 0 || lesson.paths.length > 0 || (lesson.contents?.length ?? 0) > 0) return 3;
  return lesson.tags.some((tag) => tag.startsWith('tool:') || tag.startsWith('lang:')) ? 2 : 1;
}

/** One lesson, precompiled: what the hook matches, what it injects, and how it is found. */
export type ManifestEntry = {
  lesson: ManifestLesson;
  text: ManifestText;
  literals: string[];
  keys: string[];
  always: boolean;
};

export function manifestEntry(
  { lesson, file, sig, voteScore }: ManifestSource,
  stack: readonly string[],
  compile: (glob: string) => string = compileGlob,
): ManifestEntry {
  const gated = lesson.errors ?? [];
  const guard = lesson.type === 'guard' && gated.length === 0;
  // computed once, for guards only: the manifest keeps them and the deny reason names them
  const fixes = guard ? blockedFixes(lesson) : [];
  const rendered = renderLesson(lesson, fixes);
  const entry: ManifestLesson = {
    id: lesson.id,
    n: 0,
    tier: lesson.tier,
    priority: lesson.priority,
    confidence: lesson.confidence,
    needsReview: lesson.needsReview,
    // a lesson that waits for its error cannot act before the call: it never denies
    guard,
    ...(fixes.length > 0 ? { fixes } : {}),
    ...(lesson.type === 'checkpoint' && gated.length === 0 ? { checkpoint: true } : {}),
    tools: lesson.tools.map(normalizeTool),
    commands: lesson.commands,
    paths: lesson.paths,
    pathRegexes: lesson.paths.map(compile),
    ...(lesson.contents.length > 0 ? { contents: lesson.contents } : {}),
    ...(gated.length > 0 ? { errors: gated } : {}),
    tags: lesson.tags,
    stack: lesson.stack.map((s) => s.toLowerCase()),
    ...(lesson.agents.length > 0 ? { agents: lesson.agents } : {}),
    words: summaryWords(lesson.summary),
    score: Math.round(rankBase(lesson, voteScore, stack) * 100) / 100,
    strength: staticStrength(lesson),
  };
  const text: ManifestText = {
    slug: lesson.slug,
    text: rendered.text,
    summary: rendered.summary,
    ...(entry.guard ? { reason: rendered.reason } : {}),
    ...(entry.checkpoint === true ? { reason: rendered.checkpointReason } : {}),
    sig,
    file,
  };
  return { lesson: entry, text, ...lessonKeys(lesson) };
}

/**
 * Whether a lesson opens sessions (SessionStart): project tier, reviewed, not a doc, and no tool
 * call can bring it: no tools, commands, paths or contents. A lesson with a trigger is shown at
 * the call it is about, where it earns its place; shown at the start as well, it would cost
 * context in every session and then be held back at that call as already shown. (Guards and
 * checkpoints act at their call by definition.)
 */
export function startsSessions(lesson: ManifestLesson): boolean {
  return (
    lesson.tier === 'project' &&
    !lesson.needsReview &&
    !lesson.guard &&
    lesson.checkpoint !== true &&
    lesson.tools.length === 0 &&
    lesson.commands.length === 0 &&
    lesson.paths.length === 0 &&
    (lesson.contents ?? []).length === 0 &&
    (lesson.errors ?? []).length === 0 &&
    !isDocId(lesson.id)
  );
}

export const STARTUP_LESSONS = 20;

/** Tier precedence: project > user > org. */
const TIER_RANK: Record<string, number> = { project: 0, user: 1, org: 2 };

/** Which lessons the tiers above shadow, and which lessons go into the manifest at all. */
export function chooseSources(lessons: readonly ManifestSource[]): ManifestSource[] {
  // Merge tiers: a lesson whose id or slug an active lesson of a tier above it has is left out
  // (project > user > org: a pulled copy of one's own pushed lesson gives way to the original).
  // Within one tier every lesson stays (a shared slug is only a `lore check` warning).
  const above = new Map<string, number>();
  const seenIds = new Set<string>();
  for (const { lesson } of lessons) {
    if (lesson.status !== 'active') continue;
    const rank = TIER_RANK[lesson.tier] ?? 0;
    for (const key of [`id:${lesson.id}`, `slug:${lesson.slug}`])
      above.set(key, Math.min(above.get(key) ?? rank, rank));
  }
  const chosen: ManifestSource[] = [];
  for (const source of lessons) {
    const { lesson } = source;
    if (lesson.status !== 'active' || seenIds.has(`${lesson.tier}:${lesson.id}`)) continue;
    const rank = TIER_RANK[lesson.tier] ?? 0;
    if ((above.get(`id:${lesson.id}`) ?? rank) < rank || (above.get(`slug:${lesson.slug}`) ?? rank) < rank)
      continue;
    seenIds.add(`${lesson.tier}:${lesson.id}`);
    chosen.push(source);
  }
  return chosen;
}

export function buildManifest(input: ManifestInput): Manifest {
  const blockSize = input.blockSize ?? 16;
  const globCache = new Map<string, string>();
  const compile = (glob: string) => {
    let source = globCache.get(glob);
    if (source === undefined) {
      source = compileGlob(glob);
      globCache.set(glob, source);
    }
    return source;
  };
  const skillNames = new Set(Object.keys(input.skills ?? {}));
  const entries = [
    ...chooseSources(input.lessons).map((source) => {
      const entry = manifestEntry(source, input.stack, compile);
      const skill = lessonSkill(source.lesson, skillNames);
      if (skill !== undefined) entry.lesson.skill = skill;
      return entry;
    }),
    ...(input.docs ?? []).filter((doc) => doc.paths.length > 0).map((doc) => docEntry(doc, compile)),
  ];
  entries.sort((a, b) => compareEntries(a.lesson, b.lesson));

  const literalOrdinals = new Map<string, number[]>();
  const keyOrdinals = new Map<string, number[]>();
  const wordOrdinals = new Map<string, number[]>();
  const always: number[] = [];
  const push = (map: Map<string, number[]>, key: string, n: number) => {
    const list = map.get(key);
    if (list) list.push(n);
    else map.set(key, [n]);
  };
  let guards = 0;
  entries.forEach((e, n) => {
    e.lesson.n = n;
    if (deniesCalls(e.lesson)) guards = n + 1;
    if (e.always) always.push(n);
    for (const literal of e.literals) push(literalOrdinals, literal, n);
    for (const key of e.keys) push(keyOrdinals, key, n);
    for (const key of wordKeys(e.lesson)) push(wordOrdinals, key, n);
  });

  const startup = entries
    .filter((e) => startsSessions(e.lesson))
    .sort((a, b) => b.lesson.score - a.lesson.score || (a.lesson.id < b.lesson.id ? -1 : 1))
    .slice(0, STARTUP_LESSONS);

  const blocks: ManifestLesson[][] = [];
  const texts: ManifestText[][] = [];
  for (let i = 0; i < entries.length; i += blockSize) {
    blocks.push(entries.slice(i, i + blockSize).map((e) => e.lesson));
    texts.push(entries.slice(i, i + blockSize).map((e) => e.text));
  }
  return {
    head: {
      version: MANIFEST_VERSION,
      generation: input.generation,
      builtAtMs: input.nowMs,
      projectRoot: input.projectRoot,
      settings: input.settings,
      stack: [...input.stack],
      sources: input.sources,
      blockSize,
      lessonCount: entries.length,
      guards,
      ranked: entries.length,
      index: {},
      keys: postingsOf(keyOrdinals),
      always: encodePostings(always),
      startup: startup.map((e) => e.lesson.n),
      startupScores: startup.map((e) => e.lesson.score),
      ...(input.scanIntervalHours === undefined ? {} : { scanIntervalHours: input.scanIntervalHours }),
      patched: {},
      ...(skillNames.size === 0 ? {} : { skills: input.skills }),
    },
    literals: packLiteralTable(new Map(Object.entries(postingsOf(literalOrdinals)))),
    words: postingsOf(wordOrdinals),
    blocks,
    texts,
  };
}

/** A key -> ordinals map as sorted posting lists. */
export function postingsOf(map: ReadonlyMap<string, readonly number[]>): Record<string, string> {
  return Object.fromEntries(
    [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => [k, encodePostings(v)]),
  );
}
