/**
 * Outcome-linked feedback end to end: the real hook bundle injects a lesson and writes its audit
 * line; a transcript shows the lesson's mistake coming back on the next attempt; `lore scan`
 * judges it `repeated`, records it once (however often it runs), moves confidence by the outcome
 * step, and after three repeats holds the lesson for review, where a person can keep it.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../helpers/cli.js';
import type { Sandbox } from '../helpers/cli.js';
import { runHookBundle } from '../helpers/hook.js';
import { payload } from '../helpers/hook-payloads.js';

const MISSING = 'bash: pytest: command not found';

type Shown = {
  lesson: { confidence: number; needsReview: boolean };
  feedback: { helpful: number; notHelpful: number; outcomeHelpful: number; outcomeNotHelpful: number };
};
type Outcomes = {
  judged: number;
  prevented: number;
  repeated: number;
  noise: number;
  unlinked: number;
  malformedAuditLines: number;
  heldForReview: string[];
  guardProposals: string[];
};

function pytestLesson(sandbox: Sandbox): string {
  return sandbox.add([
    '--summary',
    'pytest is not on PATH here: run python -m pytest',
    '--command',
    '^pytest\\b',
    '--mistake',
    MISSING,
  ]);
}

/** A Claude Code transcript: the call the lesson was attached to, then the next attempt, both failing. */
function writeSession(sandbox: Sandbox, dir: string, session: string, startMs = Date.now()): string {
  const file = join(dir, `${session}.jsonl`);
  const at = (seconds: number) => new Date(startMs + seconds * 1000).toISOString();
  const base = { sessionId: session, cwd: sandbox.repo };
  const lines = [
    ['toolu_1', 'pytest -q', 1],
    ['toolu_2', 'pytest -q tests/', 5],
  ].flatMap(([id, command, seconds]) => [
    {
      ...base,
      type: 'assistant',
      uuid: `${session}-${id}-a`,
      timestamp: at(seconds as number),
      message: { role: 'assistant', content: [{ type: 'tool_use', id, name: 'Bash', input: { command } }] },
    },
    {
      ...base,
      type: 'user',
      uuid: `${session}-${id}-u`,
      timestamp: at((seconds as number) + 1),
      message: {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: id, is_error: true, content: `Exit code 127\n${MISSING}` },
        ],
      },
    },
  ]);
  writeFileSync(file, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
  return file;
}

/** The real hook on the first call of a session, as Claude Code sends it. */
function injectOn(sandbox: Sandbox, session: string, transcript: string, id: string): void {
  const out = runHookBundle(sandbox, {
    ...payload('claude', 'PreToolUse', 'Bash'),
    session_id: session,
    cwd: sandbox.repo,
    transcript_path: transcript,
    tool_input: { command: 'pytest -q' },
    tool_use_id: 'toolu_1',
  });
  expect(out.stdout).toContain(id);
}

const scan = (sandbox: Sandbox, dir: string) =>
  sandbox.run(['scan', '--path', dir, '--json']).json<{ outcomes: Outcomes }>().outcomes;
const show = (sandbox: Sandbox, id: string) => sandbox.run(['show', id, '--json']).json<Shown>();

describe('outcome-linked feedback', () => {
  it('a mistake repeated after the injection is an automatic not-helpful, counted once per injection', () => {
    const sandbox = createSandbox();
    const id = pytestLesson(sandbox);
    const dir = join(sandbox.base, 'transcripts');
    mkdirSync(dir);
    const transcript = writeSession(sandbox, dir, 'sess-1');
    injectOn(sandbox, 'sess-1', transcript, id);
    const audit = readFileSync(sandbox.inRepo('.lore', 'cache', 'audit.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(JSON.parse(audit.at(-1) ?? '{}')).toMatchObject({
      session: 'sess-1',
      call_id: 'toolu_1',
      command: 'pytest -q',
      transcript,
    });

    expect(scan(sandbox, dir)).toMatchObject({ judged: 1, repeated: 1, prevented: 0, heldForReview: [] });
    expect(show(sandbox, id)).toMatchObject({
      lesson: { confidence: 0.85 },
      feedback: { notHelpful: 1, outcomeNotHelpful: 1, outcomeHelpful: 0 },
    });
    const feedback = readFileSync(sandbox.inRepo('.lore', 'lessons', id, 'feedback.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(feedback).toEqual([
      expect.objectContaining({
        helpful: false,
        source: 'outcome',
        session: 'sess-1',
        task: expect.stringMatching(/^outcome:sess-1\//),
      }),
    ]);
    const outcomes = readFileSync(sandbox.inRepo('.lore', 'cache', 'outcomes.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(outcomes.map((line) => JSON.parse(line) as Record<string, unknown>)).toEqual([
      expect.objectContaining({
        lesson: id,
        form: 'after-call',
        verdict: 'repeated',
        linkedBy: 'call-id',
        evidence: { file: transcript, line: 3 },
      }),
    ]);

    // a second scan counts nothing again
    expect(scan(sandbox, dir)).toMatchObject({ judged: 0, repeated: 0 });
    expect(show(sandbox, id)).toMatchObject({
      lesson: { confidence: 0.85 },
      feedback: { outcomeNotHelpful: 1 },
    });

    // the agent's own verdict in the same session is explicit feedback: counted beside the automatic one
    sandbox.run(['feedback', id, '--not-helpful', '--session', 'sess-1', '--source', 'hook']);
    expect(show(sandbox, id)).toMatchObject({
      lesson: { confidence: 0.75 },
      feedback: { notHelpful: 2, outcomeNotHelpful: 1 },
    });
  });

  it('three repeats hold the lesson for review until a person keeps it; it is proposed as a guard', () => {
    const sandbox = createSandbox();
    const id = pytestLesson(sandbox);
    const dir = join(sandbox.base, 'transcripts');
    mkdirSync(dir);
    for (const session of ['sess-a', 'sess-b', 'sess-c'])
      injectOn(sandbox, session, writeSession(sandbox, dir, session), id);
    // a torn or foreign audit line is counted and skipped
    writeFileSync(sandbox.inRepo('.lore', 'cache', 'audit.jsonl'), 'not json\n{"time":1}\n', { flag: 'a' });

    expect(scan(sandbox, dir)).toMatchObject({
      judged: 3,
      repeated: 3,
      malformedAuditLines: 2,
      heldForReview: [id],
      guardProposals: [id],
    });
    expect(show(sandbox, id)).toMatchObject({ lesson: { confidence: 0.75, needsReview: true } });
    const explain = () =>
      sandbox
        .run(['explain', '--tool', 'Bash', '--command', 'pytest -q', '--json'])
        .json<{ dropped: { id: string; reason: string }[]; included: { id: string }[] }>();
    expect(explain().dropped).toContainEqual(expect.objectContaining({ id, reason: 'needs-review' }));

    const listed = sandbox.run(['candidates', 'list', '--json']).json<{
      held: { id: string; repeats: { file: string; line: number }[] }[];
      guardProposals: { id: string; command: string }[];
    }>();
    expect(listed.held).toEqual([
      expect.objectContaining({
        id,
        repeats: ['sess-a', 'sess-b', 'sess-c'].map((s) =>
          expect.objectContaining({ file: join(dir, `${s}.jsonl`), line: 3 }),
        ),
      }),
    ]);
    expect(listed.guardProposals).toEqual([
      expect.objectContaining({ id, command: `lore update ${id} --type guard` }),
    ]);
    const text = sandbox.run(['candidates', 'list']).stdout;
    expect(text).toContain('lessons held by their outcomes');
    expect(text).toContain(`${join(dir, 'sess-a.jsonl')}:3`);

    const kept = sandbox.run(['review', '--keep', id]);
    expect([kept.code, kept.stdout]).toEqual([0, expect.stringContaining(`kept ${id}`)]);
    expect(show(sandbox, id).lesson.needsReview).toBe(false);
    expect(explain().included.map((item) => item.id)).toContain(id);
    expect(sandbox.run(['candidates', 'list', '--json']).json<{ held: unknown[] }>().held).toEqual([]);
  });

  it('review --keep of a lesson its outcomes never held is refused (exit 2) and writes nothing', () => {
    const sandbox = createSandbox();
    const id = pytestLesson(sandbox);
    const before = readFileSync(sandbox.lessonFile(id), 'utf8');
    const kept = sandbox.run(['review', '--keep', id]);
    expect(kept.code).toBe(2);
    expect(kept.stderr).toContain(`lesson ${id} is not held for review`);
    expect(kept.stderr).toContain('lore candidates list');
    expect(existsSync(sandbox.inRepo('.lore', 'cache', 'outcome-holds.jsonl'))).toBe(false);
    expect(readFileSync(sandbox.lessonFile(id), 'utf8')).toBe(before);
  });

  it('two scans at once count an injection once', async () => {
    const sandbox = createSandbox();
    const id = pytestLesson(sandbox);
    const dir = join(sandbox.base, 'transcripts');
    mkdirSync(dir);
    injectOn(sandbox, 'sess-x', writeSession(sandbox, dir, 'sess-x'), id);
    const runs = await Promise.all([
      sandbox.runAsync(['scan', '--path', dir, '--json']),
      sandbox.runAsync(['scan', '--path', dir, '--json']),
    ]);
    expect(runs.map((run) => run.code)).toEqual([0, 0]);
    expect(runs.map((run) => run.json<{ outcomes: Outcomes }>().outcomes.judged).sort()).toEqual([0, 1]);
    const lines = (file: string) => readFileSync(file, 'utf8').trim().split('\n').length;
    expect(lines(sandbox.inRepo('.lore', 'cache', 'outcomes.jsonl'))).toBe(1);
    expect(lines(sandbox.inRepo('.lore', 'lessons', id, 'feedback.jsonl'))).toBe(1);
    expect(show(sandbox, id).lesson.confidence).toBe(0.85);
  });

  it('an audit log from an older lore is linked by tool and time, and says what it could not link', () => {
    // found by the session id in its file name, as Claude Code names its transcripts
    const OLD_SESSION = 'a1d5e551-0000-4000-8000-000000000001';
    const sandbox = createSandbox();
    const id = pytestLesson(sandbox);
    const dir = join(sandbox.base, 'transcripts');
    mkdirSync(dir);
    const start = Date.now() - 3 * 3_600_000;
    const transcript = writeSession(sandbox, dir, OLD_SESSION, start);
    // the session ended two hours ago: what it cannot decide is judged as it is
    utimesSync(transcript, new Date(start + 3_600_000), new Date(start + 3_600_000));
    const line = (seconds: number) =>
      JSON.stringify({
        time: new Date(start + seconds * 1000).toISOString(),
        host: 'claude-code',
        session: OLD_SESSION,
        agent: 'main',
        event: 'PreToolUse',
        tool: 'Bash',
        source: null,
        lessons: [{ id, matched_by: ['command:^pytest\\b'], form: 'full' }],
        denied: [],
        bytes: 120,
        dropped: [],
        dropped_count: 0,
      });
    mkdirSync(sandbox.inRepo('.lore', 'cache'), { recursive: true });
    // the first precedes the session's first call; no call follows the second
    appendFileSync(sandbox.inRepo('.lore', 'cache', 'audit.jsonl'), `${line(0)}\n${line(1000)}\n`);

    expect(sandbox.run(['scan', '--path', dir]).stdout).toContain(
      'outcomes: judged 2 injection(s): 0 prevented, 1 repeated, 0 noise, 1 unlinked (call not found in its transcript)',
    );
    const outcomes = readFileSync(sandbox.inRepo('.lore', 'cache', 'outcomes.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((text) => JSON.parse(text) as Record<string, unknown>);
    expect(outcomes).toEqual([
      expect.objectContaining({
        verdict: 'repeated',
        linkedBy: 'call-match',
        evidence: { file: transcript, line: 3 },
      }),
      expect.objectContaining({ verdict: 'unlinked', linkedBy: 'none' }),
    ]);
    expect(scan(sandbox, dir)).toMatchObject({ judged: 0, unlinked: 0, malformedAuditLines: 0 });
  });
});
