import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../helpers/cli.js';
import type { CheckJson } from '../helpers/cli.js';

type ExplainJson = {
  event: string;
  included: { id: string; form: string; matched_by: string[] }[];
  denied: { id: string; matched_by: string[]; kind?: string }[];
  dropped: { id: string; reason: string; matched_by: string[] }[];
  additionalContext: string | null;
  permissionDecisionReason: string | null;
  stack: string[];
  disabled: boolean;
};

describe('lore explain', () => {
  function sandboxWithLessons() {
    const sandbox = createSandbox();
    writeFileSync(sandbox.inRepo('pyproject.toml'), '[project]\nname = "x"\n');
    const pytest = sandbox.add([
      '--summary',
      'pytest hangs on a TTY',
      '--command',
      '(^|\\s)pytest\\b',
      '--priority',
      '8',
    ]);
    const review = sandbox.add(['--summary', 'pytest maybe flaky', '--command', 'pytest', '--needs-review']);
    const unsure = sandbox.add(['--summary', 'pytest unsure', '--command', 'pytest', '--confidence', '0.2']);
    const rust = sandbox.add(['--summary', 'pytest in rust repos', '--command', 'pytest', '--stack', 'rust']);
    const guard = sandbox.add([
      '--summary',
      'no rm -rf build',
      '--type',
      'guard',
      '--command',
      'rm\\s+-rf\\s+build',
    ]);
    const edit = sandbox.add([
      '--summary',
      'conftest is shared',
      '--tool',
      'Edit',
      '--path',
      'tests/conftest.py',
    ]);
    return { sandbox, pytest, review, unsure, rust, guard, edit };
  }

  it('says why each lesson was included or dropped', () => {
    const { sandbox, pytest, review, unsure, rust } = sandboxWithLessons();
    const run = sandbox.run(['explain', '--tool', 'Bash', '--command', 'pytest -v tests/', '--json']);
    expect(run.code).toBe(0);
    const data = run.json<ExplainJson>();
    expect(data.stack).toEqual(['python']);
    expect(data.included).toEqual([
      { id: pytest, form: 'full', matched_by: ['command:(^|\\s)pytest\\b'], chars: expect.any(Number) },
    ]);
    expect(data.dropped.map((d) => [d.id, d.reason])).toEqual(
      expect.arrayContaining([
        [review, 'needs-review'],
        [unsure, 'low-confidence'],
        [rust, 'stack-mismatch'],
      ]),
    );
    expect(data.additionalContext).toContain('pytest hangs on a TTY');
  });

  it('shows a guard denial and the text the agent gets; text output names the reasons', () => {
    const { sandbox, guard } = sandboxWithLessons();
    const data = sandbox
      .run(['explain', '--tool', 'Bash', '--command', 'rm -rf build', '--json'])
      .json<ExplainJson>();
    expect([data.denied.map((d) => d.id), data.permissionDecisionReason]).toEqual([
      [guard],
      expect.stringContaining('blocked this call'),
    ]);
    const text = sandbox.run(['explain', '--tool', 'Bash', '--command', 'pytest']).stdout;
    expect(text).toContain('needs-review');
    expect(text).toContain('--- the agent would receive (additionalContext');
  });

  it('shows a checkpoint as denying the first call of a session, apart from guards', () => {
    const { sandbox } = sandboxWithLessons();
    const checkpoint = sandbox.add([
      '--summary',
      'publishing needs the changelog entry first',
      '--type',
      'checkpoint',
      '--command',
      'npm\\s+publish',
    ]);
    const data = sandbox
      .run(['explain', '--tool', 'Bash', '--command', 'npm publish', '--json'])
      .json<ExplainJson>();
    expect([data.denied, data.permissionDecisionReason]).toEqual([
      [{ id: checkpoint, matched_by: ['command:npm\\s+publish'], kind: 'checkpoint' }],
      expect.stringContaining(`lore checkpoint ${checkpoint}: read this lesson before this call runs.`),
    ]);
    const text = sandbox.run(['explain', '--tool', 'Bash', '--command', 'npm publish']).stdout;
    expect(text).toContain('denied by checkpoint (first call of a session only; the same call again runs):');
    expect(text).toContain(`${checkpoint}  deny once`);
    expect(text).not.toContain('denied by guard');
  });

  it('paths are relative to the working directory; prompts and session start work too', () => {
    const { sandbox, edit, pytest } = sandboxWithLessons();
    mkdirSync(sandbox.inRepo('tests'));
    const byPath = sandbox.run(['explain', '--tool', 'Edit', '--path', 'conftest.py', '--json'], {
      cwd: sandbox.inRepo('tests'),
    });
    expect(byPath.json<ExplainJson>().included.map((i) => i.id)).toEqual([edit]);
    const prompt = sandbox
      .run(['explain', '--prompt', 'please run `pytest -x` again', '--json'])
      .json<ExplainJson>();
    expect([prompt.event, prompt.included.map((i) => i.id)]).toEqual(['UserPromptSubmit', [pytest]]);
    const start = sandbox.run(['explain', '--event', 'SessionStart', '--json']).json<ExplainJson>();
    expect(start.additionalContext).toContain('#lesson');
  });

  it('usage errors exit 2', () => {
    const { sandbox } = sandboxWithLessons();
    expect(sandbox.run(['explain']).code).toBe(2);
    expect(sandbox.run(['explain', '--tool', 'Bash']).code).toBe(2);
    expect(sandbox.run(['explain', '--event', 'Nope', '--tool', 'Bash', '--command', 'x']).code).toBe(2);
  });
});

describe('lore disable / enable', () => {
  it('toggles a file in the project cache that explain reports', () => {
    const sandbox = createSandbox();
    expect(sandbox.run(['disable', '--json']).json()).toEqual({
      disabled: true,
      file: '.lore/cache/disabled',
    });
    sandbox.add(['--summary', 'x lesson', '--command', 'x']);
    expect(
      sandbox.run(['explain', '--tool', 'Bash', '--command', 'x', '--json']).json<ExplainJson>().disabled,
    ).toBe(true);
    expect(sandbox.run(['enable', '--json']).json()).toEqual({
      disabled: false,
      file: '.lore/cache/disabled',
    });
    expect(
      sandbox.run(['explain', '--tool', 'Bash', '--command', 'x', '--json']).json<ExplainJson>().disabled,
    ).toBe(false);
  });

  it('needs a project', () => {
    const sandbox = createSandbox({ init: false });
    expect(sandbox.run(['disable']).code).toBe(1);
  });
});

describe('catastrophic regexes', () => {
  it('are refused on add and update, with why', () => {
    const sandbox = createSandbox();
    const add = sandbox.run(['add', '--summary', 'x', '--command', '(a+)+$']);
    expect([add.code, add.stderr]).toEqual([
      1,
      expect.stringContaining(
        '--command #1: the regular expression /(a+)+$/ can backtrack catastrophically (nested quantifiers',
      ),
    ]);
    const id = sandbox.add(['--summary', 'y', '--command', 'ok']);
    expect(sandbox.run(['update', id, '--command', '(\\w+\\s?)*$']).code).toBe(1);
  });

  it('are reported by lore check, and never reach the hook manifest', () => {
    const sandbox = createSandbox();
    const id = sandbox.add(['--summary', 'y', '--command', 'ok']);
    const file = sandbox.lessonFile(id);
    writeFileSync(file, readFileSync(file, 'utf8').replace('- ok', "- '(a|ab)*c'"));
    const check = sandbox.run(['check', '--json']);
    expect(check.code).toBe(1);
    expect(check.json<CheckJson>().problems).toEqual([
      expect.objectContaining({
        field: 'commands.0',
        message: expect.stringContaining('alternatives under a repetition'),
      }),
    ]);
    expect(sandbox.run(['sync', '--json']).json<{ manifest: { lessons: number } }>().manifest.lessons).toBe(
      0,
    );
  });
});
