// The Persistent Learnings Layer's per-task injection records: `lore prompt --task` records each
// lesson it shows once per task, `times_injected` counts it, feedback for the task attaches to
// the record; `lore prompt --session` consults and fills the hooks' dedup state, so the hook does
// not repeat what the pre-prompt showed.
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../helpers/cli.js';
import type { ShowJson } from '../helpers/cli.js';
import { hookEnv, runHookBundle } from '../helpers/hook.js';

type Injections = {
  injections: {
    lesson: string;
    task: string;
    session: string | null;
    channel: string;
    matchedBy: string[];
    feedback: { helpful: boolean } | null;
  }[];
};

function seeded() {
  const sandbox = createSandbox();
  const migration = sandbox.add([
    '--summary',
    'never edit an applied migration; add a new one',
    '--path',
    'db/migrations/**',
  ]);
  return { sandbox, migration };
}

const TASK_ARGS = ['prompt', '--files', 'db/migrations/0042.sql', '--title', 'add a users.email index'];

describe('per-task injection records', () => {
  it('records each lesson once per task, counts it as injected and attaches the feedback', () => {
    const { sandbox, migration } = seeded();
    expect(sandbox.run([...TASK_ARGS, '--task', 'T-1']).stdout).toContain(migration);
    expect(sandbox.run([...TASK_ARGS, '--task', 'T-1']).stdout).toContain(migration);
    const records = sandbox.run(['injections', '--task', 'T-1', '--json']).json<Injections>().injections;
    expect(records).toEqual([
      {
        lesson: migration,
        task: 'T-1',
        session: null,
        channel: 'prompt',
        at: expect.any(String),
        matchedBy: ['path:db/migrations/**', 'text:summary'],
        feedback: null,
      },
    ]);
    expect(
      sandbox.run(['show', migration, '--json']).json<ShowJson & { timesInjected: number }>().timesInjected,
    ).toBe(1);
    sandbox.run([...TASK_ARGS, '--task', 'T-2']);
    expect(sandbox.run(['show', migration, '--json']).json<{ timesInjected: number }>().timesInjected).toBe(
      2,
    );

    expect(sandbox.run(['feedback', migration, '--helpful', '--task', 'T-1']).code).toBe(0);
    const after = sandbox.run(['injections', '--lesson', migration, '--json']).json<Injections>().injections;
    expect(after.map((r) => [r.task, r.feedback?.helpful ?? null])).toEqual([
      ['T-1', true],
      ['T-2', null],
    ]);
    expect(sandbox.run(['injections']).stdout).toContain(`prompt  ${migration}  T-1  helpful`);
  });

  it("a prompt into a session is not repeated by that session's hook, nor by a second prompt", () => {
    const { sandbox, migration } = seeded();
    const env = hookEnv(sandbox);
    const shown = sandbox.run([...TASK_ARGS, '--session', 'S-1', '--json'], { env });
    expect(shown.json<{ lessons: { id: string }[] }>().lessons.map((l) => l.id)).toEqual([migration]);
    expect(sandbox.run([...TASK_ARGS, '--session', 'S-1'], { env }).stdout).toBe('');
    expect(
      sandbox.run(['injections', '--task', 'session:S-1', '--json']).json<Injections>().injections,
    ).toHaveLength(1);

    const edit = (session: string) =>
      runHookBundle(sandbox, {
        session_id: session,
        transcript_path: '',
        cwd: sandbox.repo,
        hook_event_name: 'PreToolUse',
        tool_name: 'Edit',
        tool_input: { file_path: sandbox.inRepo('db/migrations/0042.sql'), old_string: 'a', new_string: 'b' },
        tool_use_id: 'toolu_1',
      }).stdout;
    expect(edit('S-1')).not.toContain(migration);
    expect(edit('S-2')).toContain(migration);
  });
});
