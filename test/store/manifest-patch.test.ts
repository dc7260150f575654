/**
 * Incremental manifest writes: after any sequence of lore writes (add, update, archive,
 * unarchive, upvote, supersede, in both tiers), the manifest on disk, maintained by patches,
 * selects exactly what a full build from the same lessons selects, for tool calls, prompts and
 * session starts. And a patch really is a patch: one write rewrites one block, not the manifest.
 */
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it, onTestFinished } from 'vitest';
import { LoreError } from '../../src/core/errors.js';
import { selectLessons } from '../../src/core/inject/select-lessons.js';
import { manifestReaders } from '../../src/core/inject/candidate-ordinals.js';
import type { HookEvent, LessonReader, ManifestWords, TextReader } from '../../src/core/inject/types.js';
import type { Tier } from '../../src/core/lesson/schema.js';
import type { LiteralLookup } from '../../src/core/inject/literal-keys.js';
import { initTier } from '../../src/store/workspace/init-tier.js';
import { workspaceManifest } from '../../src/store/manifest/manifest-build.js';
import {
  openManifestReader,
  readManifestHead,
  readManifestWords,
} from '../../src/store/hook-state/manifest-files.js';
import { readManifestState } from '../../src/store/manifest/manifest-patch.js';
import {
  addLesson,
  setStatus,
  supersedeLesson,
  updateLesson,
  upvoteLesson,
} from '../../src/store/lessons/lesson-writes.js';
import type { LessonDraft } from '../../src/store/lessons/lesson-writes.js';
import { tierLayout } from '../../src/store/fs/paths.js';
import { openWorkspace } from '../../src/store/workspace/workspace.js';
import type { Workspace } from '../../src/store/workspace/workspace.js';
import { afterWrite } from '../../src/store/workspace/after-write.js';

const NOW = Date.parse('2026-01-01T00:00:00.000Z');

type Sandbox = { repo: string; open(): Promise<Workspace> };

function sandbox(config?: string): Sandbox {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'lore-patch-')));
  const repo = join(base, 'repo');
  const loreHome = join(base, 'lore-home');
  mkdirSync(join(repo, '.git'), { recursive: true });
  initTier(tierLayout(join(repo, '.lore')));
  initTier(tierLayout(loreHome));
  if (config !== undefined) writeFileSync(join(repo, '.lore', 'config.yaml'), config);
  onTestFinished(() => rmSync(base, { recursive: true, force: true }));
  return {
    repo,
    // Votes without decay: a full build at another moment ranks them the same.
    open: () =>
      openWorkspace({
        cwd: repo,
        env: { LORE_HOME: loreHome, LORE_VOTE_HALF_LIFE_DAYS: '0' },
        home: base,
      }),
  };
}

/** One write, as one lore process makes it: open, write, close. */
async function inProcess<T>(box: Sandbox, fn: (ws: Workspace) => Promise<T>): Promise<T | undefined> {
  const ws = await box.open();
  try {
    await ws.ready();
    return await fn(ws);
  } catch (error) {
    // A refused write (superseding an archived lesson, ...) changes nothing: that is fine here.
    if (error instanceof LoreError) return undefined;
    throw error;
  } finally {
    await ws.index.settle();
    ws.close();
  }
}

const PROBES: { event: HookEvent; repoPaths: string[] }[] = [
  ...['pytest -x tests/test_a.py', 'git push origin main', 'rm -rf build', 'npm test', 'ls -la'].map(
    (command) => ({
      event: {
        event: 'PreToolUse' as const,
        sessionId: 's',
        agentId: 'main',
        cwd: '/',
        tool: 'Bash',
        command,
      },
      repoPaths: [],
    }),
  ),
  ...['src/gen/api.ts', 'tests/test_a.py', 'docs/guide.md'].map((path) => ({
    event: {
      event: 'PreToolUse' as const,
      sessionId: 's',
      agentId: 'main',
      cwd: '/',
      tool: 'Edit',
      paths: [path],
    },
    repoPaths: [path],
  })),
  {
    event: {
      event: 'UserPromptSubmit' as const,
      sessionId: 's',
      agentId: 'main',
      cwd: '/',
      prompt: 'run pytest, then push the docs with git',
    },
    repoPaths: [],
  },
  {
    event: { event: 'SessionStart' as const, sessionId: 's', agentId: 'main', cwd: '/', source: 'startup' },
    repoPaths: [],
  },
];

type Source = {
  head: NonNullable<ReturnType<typeof readManifestHead>>;
  readLesson: LessonReader;
  readText: TextReader;
  literals: LiteralLookup;
  words?: ManifestWords;
};

/** What the hook would output for every probe, from one manifest. */
function outputs(source: Source) {
  return PROBES.map(({ event, repoPaths }) => {
    const { decision } = selectLessons({
      event,
      head: source.head,
      readLesson: source.readLesson,
      readText: source.readText,
      literals: source.literals,
      words: source.words,
      repoPaths,
      state: { seen: new Set(), shownCount: 0, stateAvailable: true },
      settings: source.head.settings,
    });
    return {
      probe: event.command ?? event.paths?.[0] ?? event.prompt ?? event.event,
      context: decision.context,
      deny: decision.deny,
      included: decision.plan.included.map((item) => item.id),
      denied: decision.plan.denied.map((item) => item.id),
    };
  });
}

async function compareWithFullBuild(box: Sandbox) {
  const ws = await box.open();
  try {
    const full = await workspaceManifest(ws, NOW);
    const head = readManifestHead(ws.cacheDir);
    expect(head).toBeDefined();
    const reader = openManifestReader(ws.cacheDir, head as Source['head']);
    const onDisk: Source = {
      head: head as Source['head'],
      readLesson: reader.readLesson,
      readText: reader.readText,
      literals: reader.literals,
      words: readManifestWords(ws.cacheDir, head as Source['head']),
    };
    const rebuilt: Source = { head: full.head, ...manifestReaders(full), words: full.words };
    try {
      expect(outputs(onDisk)).toEqual(outputs(rebuilt));
    } finally {
      reader.close();
    }
  } finally {
    ws.close();
  }
}

const SUMMARIES = [
  'pytest needs -p no:cacheprovider',
  'never force push',
  'rm -rf with an unset variable',
  'generated files are rebuilt',
  'docs go through review',
];
const draftArb: fc.Arbitrary<LessonDraft> = fc.record(
  {
    summary: fc.constantFrom(...SUMMARIES),
    slug: fc.constantFrom('shared-lesson', 'other-lesson'),
    commands: fc.subarray(['^pytest\\b', 'git\\s+push', 'rm\\s+-rf', 'npm (test|run)']),
    paths: fc.subarray(['src/gen/**', 'tests/**', '**/*.py', 'docs/*.md']),
    tags: fc.subarray(['tool:pytest', 'lang:python', 'tool:git', 'docs']),
    tools: fc.subarray(['Bash', 'Edit']),
    type: fc.constantFrom('hint' as const, 'guard' as const),
    priority: fc.integer({ min: 1, max: 9 }),
    needsReview: fc.boolean(),
  },
  { requiredKeys: ['summary'] },
);

type Op =
  | { kind: 'add'; tier: Tier; draft: LessonDraft }
  | { kind: 'update'; pick: number; draft: LessonDraft }
  | { kind: 'archive' | 'unarchive' | 'upvote'; pick: number; task: string }
  | { kind: 'supersede'; pick: number; other: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('add' as const),
      tier: fc.constantFrom<Tier>('project', 'project', 'user'),
      draft: draftArb,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('update' as const), pick: fc.nat(), draft: draftArb }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constantFrom('archive' as const, 'unarchive' as const, 'upvote' as const),
      pick: fc.nat(),
      task: fc.constantFrom('t1', 't2', 't3'),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('supersede' as const), pick: fc.nat(), other: fc.nat() }),
  },
);

async function apply(box: Sandbox, ids: string[], op: Op): Promise<void> {
  const pick = (n: number) => ids[n % Math.max(1, ids.length)];
  if (op.kind === 'add') {
    const added = await inProcess(box, (ws) => addLesson(ws, op.draft, { tier: op.tier, nowMs: NOW }));
    if (added !== undefined) ids.push(added.id);
    return;
  }
  const id = pick(op.pick);
  if (id === undefined) return;
  if (op.kind === 'update') await inProcess(box, (ws) => updateLesson(ws, id, op.draft, { nowMs: NOW }));
  if (op.kind === 'archive') await inProcess(box, (ws) => setStatus(ws, id, 'archived', NOW));
  if (op.kind === 'unarchive') await inProcess(box, (ws) => setStatus(ws, id, 'active', NOW));
  if (op.kind === 'upvote') {
    await inProcess(box, (ws) =>
      upvoteLesson(ws, id, { model: 'm', task: op.task, at: new Date(NOW).toISOString() }),
    );
  }
  const other = op.kind === 'supersede' ? pick(op.other) : undefined;
  if (other !== undefined) await inProcess(box, (ws) => supersedeLesson(ws, id, other, NOW));
}

describe('incremental manifest', () => {
  it('after any sequence of writes, selects what a full build selects (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 14 }), async (ops) => {
        const box = sandbox();
        await inProcess(box, (ws) => afterWrite(ws, 'project'));
        const ids: string[] = [];
        for (const op of ops) {
          await apply(box, ids, op);
          await compareWithFullBuild(box);
        }
      }),
      { numRuns: 25 },
    );
  }, 240_000);

  it('with aggregated tool skills kept current on every write, still selects what a full build selects (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 10 }), async (ops) => {
        const box = sandbox('aggregate:\n  enabled: true\n  threshold: 2\n');
        await inProcess(box, (ws) => afterWrite(ws, 'project'));
        const ids: string[] = [];
        for (const op of ops) {
          await apply(box, ids, op);
          await compareWithFullBuild(box);
        }
      }),
      { numRuns: 12 },
    );
  }, 240_000);

  it('one write patches one block: same generation, the lesson in the overflow, the old slot a hole', async () => {
    const box = sandbox();
    const ids: string[] = [];
    for (const summary of SUMMARIES) {
      await apply(box, ids, { kind: 'add', tier: 'project', draft: { summary, commands: ['^pytest\\b'] } });
    }
    // A sync-like full build first, so every lesson is in the ranked region.
    const ws = await box.open();
    await ws.ready();
    await afterWrite(ws, 'project');
    const before = readManifestHead(ws.cacheDir);
    ws.close();
    await apply(box, ids, { kind: 'update', pick: 0, draft: { priority: 9 } });
    const after = readManifestHead(join(box.repo, '.lore', 'cache'));
    expect(after?.generation).toBe(before?.generation);
    expect(after?.revision).not.toBe(before?.revision);
    expect({ lessons: after?.lessonCount, ranked: after?.ranked }).toEqual({ lessons: 6, ranked: 5 });
    // a lesson with a command is not filed under its words (a prompt brings it by its command)
    expect(Object.keys(after?.patched ?? {}).sort()).toEqual(['0']);
    const state = readManifestState(join(box.repo, '.lore', 'cache'));
    expect(state?.entries.filter((entry) => entry === null)).toHaveLength(1);
    expect(state?.entries[5]?.[0]).toBe(`project:${ids[0]}`);
    await compareWithFullBuild(box);
  });

  it("a lesson edited behind lore's back: the next write builds in full and picks the edit up", async () => {
    const box = sandbox();
    const ids: string[] = [];
    await apply(box, ids, {
      kind: 'add',
      tier: 'project',
      draft: { summary: 'first', commands: ['^make\\b'] },
    });
    await apply(box, ids, {
      kind: 'add',
      tier: 'project',
      draft: { summary: 'second', commands: ['^pytest\\b'] },
    });
    const cache = join(box.repo, '.lore', 'cache');
    const before = readManifestHead(cache);
    appendFileSync(join(box.repo, '.lore', 'lessons', ids[0] as string, 'lesson.yaml'), 'priority: 9\n');
    await apply(box, ids, { kind: 'upvote', pick: 1, task: 't1' });
    const after = readManifestHead(cache);
    expect(after?.generation).not.toBe(before?.generation);
    await compareWithFullBuild(box);
  });

  it('a patch leaves no more than two versions of any block behind', async () => {
    const box = sandbox();
    const ids: string[] = [];
    await apply(box, ids, {
      kind: 'add',
      tier: 'project',
      draft: { summary: 'one', commands: ['^make\\b'] },
    });
    for (const task of ['a', 'b', 'c', 'd', 'e']) await apply(box, ids, { kind: 'upvote', pick: 0, task });
    const head = readManifestHead(join(box.repo, '.lore', 'cache'));
    const files = readdirSync(join(box.repo, '.lore', 'cache', 'manifest', head?.generation ?? ''));
    expect(files.filter((name) => name.startsWith('b0')).length).toBeLessThanOrEqual(2);
  });
});
