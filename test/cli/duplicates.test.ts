// Near-duplicates: named when a lesson is added or a candidate approved (stderr, or "duplicates" in
// --json), refused with --no-duplicate, listed by lore dedupe. Candidates are approved into the
// tier capture classified them for.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { mergeCandidate } from '../../src/core/capture/merge-candidate.js';
import type { CandidateDraft } from '../../src/core/capture/draft-candidate.js';
import { serializeCandidate } from '../../src/store/candidates/candidate-store.js';
import { createSandbox, lessonDirs } from '../helpers/cli.js';
import type { ErrorJson, Sandbox } from '../helpers/cli.js';

type Duplicate = { id: string; tier: string; score: number; summary: string };
type AddJson = { id: string; tier: string; duplicates: Duplicate[] };
type Group = { keep: Duplicate; others: Duplicate[]; pairs: { a: string; b: string; score: number }[] };
type DedupeJson = { threshold: number; groups: Group[] };

const PYTEST = 'pytest hangs on a TTY in agent shells: run CI=1 pytest -p no:cacheprovider';
const PYTEST_AGAIN = 'pytest hangs waiting for a TTY; run it with CI=1 and -p no:cacheprovider';
const fixtures = fileURLToPath(new URL('../fixtures/transcripts/', import.meta.url));

describe('near-duplicates on add', () => {
  it('names them on stderr with the upvote suggestion, and still adds', () => {
    const sandbox = createSandbox();
    const first = sandbox.add(['--summary', PYTEST, '--tag', 'tool:pytest']);
    const run = sandbox.run(['add', '--summary', PYTEST_AGAIN, '--tag', 'tool:pytest']);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('1 similar lesson(s) already in the store:');
    expect(run.stderr).toContain(first);
    expect(run.stderr).toContain(`lore upvote ${first} --model M --task T`);
    expect(lessonDirs(sandbox.inRepo('.lore'))).toHaveLength(2);
  });

  it('--json carries "duplicates" (and nothing on stderr); an unrelated lesson has none', () => {
    const sandbox = createSandbox();
    const first = sandbox.add(['--summary', PYTEST]);
    const run = sandbox.run(['add', '--summary', PYTEST_AGAIN, '--json']);
    expect(run.stderr).toBe('');
    const data = run.json<AddJson>();
    expect(data.duplicates).toHaveLength(1);
    expect(data.duplicates[0]).toMatchObject({ id: first, tier: 'project', summary: PYTEST });
    expect(data.duplicates[0]?.score).toBeGreaterThan(0.4);
    const other = sandbox.run([
      'add',
      '--summary',
      'Run the database migrations before starting the API',
      '--json',
    ]);
    expect(other.json<AddJson>().duplicates).toEqual([]);
    expect(other.stderr).toBe('');
  });

  it('--no-duplicate refuses (exit 1, nothing written) and names the lesson to upvote', () => {
    const sandbox = createSandbox({ loreHome: true });
    const first = sandbox.add(['--summary', PYTEST, '--tier', 'user']);
    const refused = sandbox.run(['add', '--summary', PYTEST_AGAIN, '--no-duplicate']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('not added: 1 similar lesson(s) already exist');
    expect(refused.stderr).toContain(`lore upvote ${first}`);
    expect(lessonDirs(sandbox.inRepo('.lore'))).toEqual([]);
    const json = sandbox
      .run(['add', '--summary', PYTEST_AGAIN, '--no-duplicate', '--json'])
      .json<ErrorJson>();
    expect(json.error.code).toBe('conflict');
    expect((json.error.details as Duplicate[])[0]?.id).toBe(first);
    expect(sandbox.run(['add', '--summary', 'Never commit .env files', '--no-duplicate']).code).toBe(0);
  });
});

describe('lore dedupe', () => {
  it('groups likely duplicates across tiers, suggests which to keep, honours --threshold', () => {
    const sandbox = createSandbox({ loreHome: true });
    const user = sandbox.add(['--summary', PYTEST, '--tier', 'user']);
    const project = sandbox.add(['--summary', PYTEST_AGAIN]);
    const third = sandbox.add([
      '--summary',
      'pytest hangs on a TTY: CI=1 pytest -p no:cacheprovider fixes it',
    ]);
    const edit = sandbox.add(['--summary', 'Read a file before editing it']);
    const edit2 = sandbox.add(['--summary', 'Read the whole file before editing it with the Edit tool']);
    sandbox.add(['--summary', 'Run the database migrations before starting the API']);

    const data = sandbox.run(['dedupe', '--json']).json<DedupeJson>();
    expect(data.threshold).toBe(0.4);
    const sets = data.groups.map((group) => [group.keep.id, ...group.others.map((o) => o.id)].sort());
    expect(sets).toEqual(
      [[project, third, user].sort(), [edit, edit2].sort()].sort((a, b) => b.length - a.length),
    );
    const pytest = data.groups.find((group) => group.others.length === 2);
    expect(pytest?.keep.tier).toBe('project');
    expect(pytest?.pairs.length).toBeGreaterThanOrEqual(2);

    const text = sandbox.run(['dedupe']).stdout;
    expect(text).toContain('group 1:');
    // a user lesson is retired for a project one only once that one is in the user tier too
    expect(text).toContain(
      `lore promote ${pytest?.keep.id} && lore supersede ${user} --with ${pytest?.keep.id}`,
    );
    const suggested = sandbox.run(['supersede', user, '--with', pytest?.keep.id ?? '']);
    expect(suggested.code).toBe(2);

    expect(sandbox.run(['dedupe', '--threshold', '0.99', '--json']).json<DedupeJson>().groups).toEqual([]);
    expect(sandbox.run(['dedupe', '--threshold', '0.99']).stdout).toContain('no likely duplicates');
    expect(sandbox.run(['dedupe', '--threshold', '2']).code).toBe(2);
    const tierOnly = sandbox.run(['dedupe', '--tier', 'project', '--json']).json<DedupeJson>();
    expect(tierOnly.groups.flatMap((g) => [g.keep, ...g.others]).every((m) => m.tier === 'project')).toBe(
      true,
    );
  });

  it('archived and superseded lessons are not duplicates', () => {
    const sandbox = createSandbox();
    const a = sandbox.add(['--summary', PYTEST]);
    const b = sandbox.add(['--summary', PYTEST_AGAIN]);
    expect(sandbox.run(['supersede', b, '--with', a]).code).toBe(0);
    expect(sandbox.run(['dedupe', '--json']).json<DedupeJson>().groups).toEqual([]);
  });
});

const SIGNALS = {
  fixConfirmed: true,
  userCorrection: false,
  causal: false,
  hang: false,
  retry: false,
  dataLoss: false,
  silentFailure: false,
  selfReported: true,
};

/** A candidate as lore scan stores it, classified `scope`. */
function writeCandidate(
  sandbox: Sandbox,
  id: string,
  summary: string,
  scope: CandidateDraft['scope'],
  tier: 'project' | 'user' = 'project',
): void {
  const draft: CandidateDraft = {
    contentHash: `hash-${id}`,
    kind: 'lesson-block',
    tier: 1,
    tool: 'Bash',
    trigger: 'pytest',
    summary,
    body: 'Found by `lore scan`.',
    mistake: summary,
    remediation: undefined,
    tools: ['Bash'],
    commands: [],
    paths: [],
    errors: [],
    tags: ['env:claude-code'],
    category: 'technical',
    severity: 'medium',
    scope,
    signals: SIGNALS,
    session: `session-${id}`,
    project: sandbox.repo,
    agent: 'claude-code',
    evidence: [{ file: 'transcript.jsonl', line: 3 }],
    anchor: `transcript.jsonl:${id}`,
    drop: undefined,
  };
  const scoring = {
    floor: 0.5,
    confidence: {
      base: 0.4,
      tier1: 0.85,
      fixConfirmed: 0.2,
      userCorrection: 0.15,
      multiSession: 0.1,
      multiProject: 0.1,
      causal: 0.05,
      retry: 0.1,
      hang: 0.1,
    },
    priority: {
      base: 3,
      multiSession: 2,
      multiProject: 1,
      hang: 1,
      dataLoss: 1,
      userCorrection: 1,
      fixConfirmed: 1,
      selfReported: 1,
      singleOccurrence: -1,
    },
  };
  const { record } = mergeCandidate(draft, undefined, {
    id,
    nowIso: new Date().toISOString(),
    tier,
    scoring,
  });
  const root = tier === 'project' ? sandbox.inRepo('.lore') : sandbox.userTier;
  mkdirSync(join(root, 'candidates', id), { recursive: true });
  writeFileSync(join(root, 'candidates', id, 'lesson.yaml'), serializeCandidate(record));
}

type ApproveJson = {
  id: string;
  tier: string;
  placement: { tier: string; universal: boolean; classifiedBy?: string; reason: string };
  duplicates: Duplicate[];
};

describe('approving a candidate', () => {
  it('writes it to the tier capture classified, records classifiedBy, and names near-duplicates', () => {
    const sandbox = createSandbox({ loreHome: true });
    writeCandidate(sandbox, 'c000000001', 'write the failing test first, then the fix', {
      scope: 'universal',
      reason: 'its advice is about how to work ("tests first")',
    });
    writeCandidate(sandbox, 'c000000002', PYTEST_AGAIN, {
      scope: 'user',
      reason: 'it is about a tool or library (pytest)',
    });
    writeCandidate(sandbox, 'c000000003', 'db/schema.sql has no email column on users', {
      scope: 'project',
      reason: 'it names a path in the repository (db/schema.sql)',
    });
    writeCandidate(sandbox, 'c000000004', 'the deploy script needs AWS_PROFILE set', {
      scope: 'project',
      reason: 'x',
    });
    const existing = sandbox.add(['--summary', PYTEST]);

    const shown = sandbox.run(['candidates', 'show', 'c000000001']).stdout;
    expect(shown).toContain('belongs: universal');
    expect(shown).toContain('approving writes it to: user (universal)');

    const universal = sandbox.run(['candidates', 'approve', 'c000000001', '--json']).json<ApproveJson>();
    expect(universal).toMatchObject({
      tier: 'user',
      placement: { universal: true, classifiedBy: 'capture' },
    });
    const file = sandbox.lessonFile(universal.id, 'user');
    expect(parse(readFileSync(file, 'utf8'))).toMatchObject({
      tier: 'user',
      universal: true,
      classifiedBy: 'capture',
    });

    const library = sandbox.run(['candidates', 'approve', 'c000000002']);
    expect(library.code).toBe(0);
    expect(library.stdout).toContain(`(user) in ${sandbox.userTier}/lessons/`);
    expect(library.stdout).toContain('why there: it is about a tool or library (pytest)');
    expect(library.stderr).toContain(`lore upvote ${existing}`);

    const project = sandbox.run(['candidates', 'approve', 'c000000003', '--json']).json<ApproveJson>();
    expect(project).toMatchObject({
      tier: 'project',
      placement: { classifiedBy: 'capture' },
      duplicates: [],
    });

    const overridden = sandbox
      .run(['candidates', 'approve', 'c000000004', '--tier', 'universal', '--json'])
      .json<ApproveJson>();
    expect(overridden).toMatchObject({ tier: 'user', placement: { universal: true, classifiedBy: 'human' } });
  });

  it('--no-duplicate keeps the candidate when a near-duplicate exists', () => {
    const sandbox = createSandbox({ loreHome: true });
    writeCandidate(sandbox, 'c000000005', PYTEST_AGAIN, { scope: 'project', reason: 'x' });
    sandbox.add(['--summary', PYTEST]);
    const refused = sandbox.run(['candidates', 'approve', 'c000000005', '--no-duplicate']);
    expect(refused.code).toBe(1);
    expect(
      sandbox
        .run(['candidates', 'list', '--json'])
        .json<{ candidates: { id: string }[] }>()
        .candidates.map((c) => c.id),
    ).toEqual(['c000000005']);
  });

  it('lore scan classifies every candidate it drafts', () => {
    const sandbox = createSandbox({ loreHome: true });
    expect(sandbox.run(['scan', '--path', join(fixtures, 'claude-code')]).code).toBe(0);
    const listed = sandbox
      .run(['candidates', 'list', '--json'])
      .json<{ candidates: { id: string }[] }>().candidates;
    expect(listed.length).toBeGreaterThan(2);
    for (const candidate of listed.slice(0, 4)) {
      const record = sandbox
        .run(['candidates', 'show', candidate.id, '--json'])
        .json<{ record: { capture: { scope: string; scopeReason: string } } }>().record;
      expect(['project', 'user', 'universal']).toContain(record.capture.scope);
      expect(record.capture.scopeReason).not.toBe('');
    }
  });
});
