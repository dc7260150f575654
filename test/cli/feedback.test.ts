/**
 * The feedback loop: `lore feedback`, the Stop hook's LEARNING_HELPFUL markers, markers found by
 * `lore scan` (also on worker threads), confidence moving in lesson.yaml so that `lore show`, the
 * index and the hook's confidence floor agree, and `lore maintain`'s unused decay.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type * as ScanModule from '../../src/capture/scan-transcripts.js';
import { createSandbox } from '../helpers/cli.js';
import type { Sandbox } from '../helpers/cli.js';
import { fileAppears, fileDisappears, runHookBundle } from '../helpers/hook.js';
import { payload } from '../helpers/hook-payloads.js';

type Shown = {
  lesson: { confidence: number };
  feedback: { helpful: number; notHelpful: number };
  timesInjected: number;
};
const show = (sandbox: Sandbox, id: string) => sandbox.run(['show', id, '--json']).json<Shown>();

function pytestLesson(sandbox: Sandbox, extra: string[] = []): string {
  return sandbox.add([
    '--summary',
    'run pytest with -p no:cacheprovider',
    '--command',
    '\\bpytest\\b',
    ...extra,
  ]);
}

function bash(sandbox: Sandbox, session: string) {
  return {
    ...payload('claude', 'PreToolUse', 'Bash'),
    session_id: session,
    cwd: sandbox.repo,
    tool_input: { command: 'pytest -q' },
  };
}

function assistantLine(session: string, cwd: string, text: string, n: number): string {
  return `${JSON.stringify({
    parentUuid: null,
    sessionId: session,
    cwd,
    uuid: `u-${session}-${n}`,
    timestamp: `2026-11-20T10:00:0${n}.000Z`,
    message: { role: 'assistant', content: [{ type: 'text', text }] },
    type: 'assistant',
  })}\n`;
}

describe('lore feedback', () => {
  it.each([
    [['--helpful'], 0.95, { helpful: 1, notHelpful: 0 }],
    [['--not-helpful'], 0.8, { helpful: 0, notHelpful: 1 }],
  ])('%j moves the confidence in lesson.yaml; show, list and the file agree', (flags, after, counts) => {
    const sandbox = createSandbox();
    const id = pytestLesson(sandbox);
    const run = sandbox.run(['feedback', id, ...flags, '--task', 'T-1']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`confidence 0.9 -> ${after}`);
    expect(show(sandbox, id)).toMatchObject({ lesson: { confidence: after }, feedback: counts });
    expect(sandbox.run(['show', id]).stdout).toContain(`confidence: ${after}`);
    expect(readFileSync(sandbox.lessonFile(id), 'utf8')).toContain(`confidence: ${after}`);
    const listed = sandbox.run(['list', '--json']).json<{ lessons: { id: string; confidence: number }[] }>();
    expect(listed.lessons.find((l) => l.id === id)?.confidence).toBe(after);
  });

  it('stays within 0.1 and 1.0', () => {
    const sandbox = createSandbox();
    const id = pytestLesson(sandbox, ['--confidence', '0.3']);
    for (let i = 0; i < 3; i += 1) sandbox.run(['feedback', id, '--not-helpful']);
    expect(show(sandbox, id).lesson.confidence).toBe(0.1);
    for (let i = 0; i < 20; i += 1) sandbox.run(['feedback', id, '--helpful']);
    expect(show(sandbox, id).lesson.confidence).toBe(1);
  });

  it('counts a session verdict once', () => {
    const sandbox = createSandbox();
    const id = pytestLesson(sandbox);
    expect(sandbox.run(['feedback', id, '--helpful', '--session', 's-1']).code).toBe(0);
    const again = sandbox.run(['feedback', id, '--helpful', '--session', 's-1']);
    expect(again.stdout).toContain('already said helpful; nothing changed');
    expect(show(sandbox, id)).toMatchObject({ lesson: { confidence: 0.95 }, feedback: { helpful: 1 } });
  });

  it('refuses a call without a verdict, with usage', () => {
    const sandbox = createSandbox();
    const id = pytestLesson(sandbox);
    const run = sandbox.run(['feedback', id]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('say --helpful or --not-helpful');
  });

  it('refuses a note, task or vote too long for a line of a committed file; nothing is written', () => {
    const sandbox = createSandbox();
    const id = pytestLesson(sandbox);
    const note = sandbox.run(['feedback', id, '--helpful', '--task', 't', '--note', 'x'.repeat(2_001)]);
    expect([note.code, note.stderr]).toEqual([
      2,
      expect.stringContaining('note is 2,001 characters; at most 2,000'),
    ]);
    const task = sandbox.run(['upvote', id, '--model', 'm', '--task', 't'.repeat(257)]);
    expect([task.code, task.stderr]).toEqual([
      2,
      expect.stringContaining('task is 257 characters; at most 256'),
    ]);
    const dir = sandbox.inRepo('.lore', 'lessons', id);
    expect(['feedback.jsonl', 'votes.jsonl'].filter((f) => existsSync(join(dir, f)))).toEqual([]);
    expect(sandbox.run(['feedback', id, '--helpful', '--task', 't', '--note', 'x'.repeat(2_000)]).code).toBe(
      0,
    );
  });

  it('moves a lesson under the confidence floor out of the hook', () => {
    const sandbox = createSandbox();
    const id = pytestLesson(sandbox, ['--confidence', '0.55']);
    expect(runHookBundle(sandbox, bash(sandbox, 'floor-1')).stdout).toContain(id);
    sandbox.run(['feedback', id, '--not-helpful']);
    expect(show(sandbox, id).lesson.confidence).toBe(0.45);
    expect(runHookBundle(sandbox, bash(sandbox, 'floor-2')).stdout).not.toContain(id);
  });
});

describe('the Stop hook', () => {
  it('records LEARNING_HELPFUL from the last assistant message once per session', async () => {
    const sandbox = createSandbox();
    const id = pytestLesson(sandbox);
    const other = sandbox.add(['--summary', 'a lesson that misled']);
    const stop = {
      session_id: 'stop-session',
      transcript_path: join(sandbox.base, 'none.jsonl'),
      cwd: sandbox.repo,
      hook_event_name: 'Stop',
      stop_hook_active: false,
      last_assistant_message: `Done. LEARNING_HELPFUL: ${id}\nLEARNING_NOT_HELPFUL: ${other}`,
    };
    const feedbackFile = join(sandbox.repo, '.lore', 'lessons', other, 'feedback.jsonl');
    const lock = join(sandbox.repo, '.lore', 'cache', 'locks', `${other}.lock`);
    const appeared = fileAppears(feedbackFile);
    const first = runHookBundle(sandbox, stop);
    expect(first.stdout.trim()).toBe('{}');
    await appeared;
    await fileDisappears(lock);
    expect(show(sandbox, id)).toMatchObject({ lesson: { confidence: 0.95 }, feedback: { helpful: 1 } });
    expect(show(sandbox, other)).toMatchObject({ lesson: { confidence: 0.8 }, feedback: { notHelpful: 1 } });
    // The same stop again (a resumed session): nothing new is counted.
    const repeated = sandbox.run([
      'feedback',
      id,
      '--helpful',
      '--session',
      'stop-session',
      '--source',
      'hook',
    ]);
    expect(repeated.stdout).toContain('nothing changed');
  });

  it('reads the transcript when the payload has no last_assistant_message', async () => {
    const sandbox = createSandbox();
    const id = pytestLesson(sandbox);
    const transcript = join(sandbox.base, 'session.jsonl');
    writeFileSync(transcript, assistantLine('t-session', sandbox.repo, `LEARNING_NOT_HELPFUL: ${id}`, 1));
    const feedbackFile = join(sandbox.repo, '.lore', 'lessons', id, 'feedback.jsonl');
    const appeared = fileAppears(feedbackFile);
    runHookBundle(sandbox, {
      session_id: 't-session',
      transcript_path: transcript,
      cwd: sandbox.repo,
      hook_event_name: 'Stop',
      stop_hook_active: false,
    });
    await appeared;
    await fileDisappears(join(sandbox.repo, '.lore', 'cache', 'locks', `${id}.lock`));
    expect(show(sandbox, id).lesson.confidence).toBe(0.8);
  });
});

describe('markers in transcripts', () => {
  it('lore scan records them once, however often the transcript is rescanned', () => {
    const sandbox = createSandbox();
    const id = pytestLesson(sandbox);
    const dir = join(sandbox.base, 'transcripts');
    mkdirSync(dir);
    const file = join(dir, 'scan-session.jsonl');
    writeFileSync(
      file,
      assistantLine('scan-session', sandbox.repo, `That worked. LEARNING_HELPFUL: ${id}`, 1),
    );
    const first = sandbox.run(['scan', '--path', dir, '--json']);
    expect(first.json<{ feedback: { recorded: number } }>().feedback.recorded).toBe(1);
    // More lines, and a new file repeating the marker of the same session: still one report.
    appendFileSync(file, assistantLine('scan-session', sandbox.repo, `Again: LEARNING_HELPFUL: ${id}`, 2));
    writeFileSync(join(dir, 'copy.jsonl'), readFileSync(file, 'utf8'));
    const second = sandbox.run(['scan', '--path', dir, '--json']);
    expect(second.json<{ feedback: { recorded: number; repeated: number } }>().feedback).toMatchObject({
      recorded: 0,
      repeated: 1,
    });
    expect(show(sandbox, id)).toMatchObject({ lesson: { confidence: 0.95 }, feedback: { helpful: 1 } });
  });

  it('come back from worker threads as they do from one thread', async () => {
    const sandbox = createSandbox();
    const dir = join(sandbox.base, 'transcripts');
    mkdirSync(dir);
    for (let i = 0; i < 3; i += 1) {
      writeFileSync(
        join(dir, `s${i}.jsonl`),
        assistantLine(`s${i}`, sandbox.repo, `LEARNING_HELPFUL: abc${i}\nLEARNING_NOT_HELPFUL: def${i}`, i),
      );
    }
    const built = new URL('../../dist/capture/scan-transcripts.js', import.meta.url).href;
    const { scanTranscripts } = (await import(built)) as typeof ScanModule;
    const scan = (threads: 'never' | 'always') =>
      scanTranscripts({
        roots: [{ path: dir, shownAs: 'transcripts' }],
        statePath: join(sandbox.base, `${threads}.json`),
        detector: { window: 40 },
        redact: { names: [] },
        threads,
      });
    const one = scan('never');
    const workers = scan('always');
    expect(workers.workers).toBeGreaterThan(0);
    expect(workers.markers).toEqual(one.markers);
    expect(one.markers.map((m) => `${m.session}:${m.ref}:${m.helpful}`)).toEqual([
      's0:abc0:true',
      's0:def0:false',
      's1:abc1:true',
      's1:def1:false',
      's2:abc2:true',
      's2:def2:false',
    ]);
  });
});

describe('lore maintain', () => {
  it('lowers the confidence of lessons unused for 30-day periods, once', () => {
    const sandbox = createSandbox();
    const id = pytestLesson(sandbox);
    const fresh = sandbox.add(['--summary', 'a lesson added today']);
    const file = sandbox.lessonFile(id);
    const old = new Date(Date.now() - 95 * 86_400_000).toISOString();
    writeFileSync(file, readFileSync(file, 'utf8').replace(/createdAt: .*/, `createdAt: ${old}`));

    const dry = sandbox
      .run(['maintain', '--dry-run', '--json'])
      .json<{ decayed: { id: string; after: number }[] }>();
    expect(dry.decayed).toEqual([expect.objectContaining({ id, after: 0.84 })]);
    expect(show(sandbox, id).lesson.confidence).toBe(0.9);

    const run = sandbox.run(['maintain']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`${id}  0.9 -> 0.84`);
    expect(show(sandbox, id).lesson.confidence).toBe(0.84);
    expect(show(sandbox, fresh).lesson.confidence).toBe(0.9);
    expect(sandbox.run(['maintain', '--json']).json<{ decayed: unknown[] }>().decayed).toEqual([]);
  });

  it('counts from the last injection in the audit log', () => {
    const sandbox = createSandbox();
    const id = pytestLesson(sandbox);
    const file = sandbox.lessonFile(id);
    const old = new Date(Date.now() - 95 * 86_400_000).toISOString();
    writeFileSync(file, readFileSync(file, 'utf8').replace(/createdAt: .*/, `createdAt: ${old}`));
    expect(runHookBundle(sandbox, bash(sandbox, 'used')).stdout).toContain(id);
    expect(show(sandbox, id).timesInjected).toBe(1);
    expect(sandbox.run(['maintain', '--json']).json<{ decayed: unknown[] }>().decayed).toEqual([]);
  });
});
