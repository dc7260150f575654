// lore explain --host: the hook's answer as each agent gets it, through the built binary.
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../helpers/cli.js';
import { LS_ERROR_TRIGGER } from '../helpers/error-lesson.js';

function sandboxWithLessons() {
  const sandbox = createSandbox();
  const guard = sandbox.add([
    '--summary',
    'rm -rf build deletes the toolchain',
    '--type',
    'guard',
    '--command',
    'rm\\s+-rf\\s+build',
    '--remediation',
    'make clean',
  ]);
  const pytest = sandbox.add(['--summary', 'pytest needs --no-header here', '--command', 'pytest']);
  return { sandbox, guard, pytest };
}

type Half = {
  hostEvent: string;
  phase: string | null;
  denied: { id: string }[];
  included: { id: string }[];
  output: Record<string, unknown>;
};

describe('lore explain --host', () => {
  it.each([
    ['gemini', ['BeforeTool', 'AfterTool'], { decision: 'deny' }, 'hookSpecificOutput'],
    [
      'cursor',
      ['preToolUse / beforeShellExecution', 'postToolUse'],
      { permission: 'deny' },
      'additional_context',
    ],
  ])(
    '%s: a tool call in two halves, guards before and advice after, in its JSON',
    (host, events, deny, adviceKey) => {
      const { sandbox, guard, pytest } = sandboxWithLessons();
      const run = sandbox.run([
        'explain',
        '--host',
        host,
        '--tool',
        'Bash',
        '--command',
        'rm -rf build && pytest',
        '--json',
      ]);
      expect(run.code).toBe(0);
      const { halves } = JSON.parse(run.stdout) as { halves: Half[] };
      expect(halves.map((h) => [h.hostEvent, h.phase])).toEqual([
        [events[0], 'before'],
        [events[1], 'after'],
      ]);
      const [before, after] = halves as [Half, Half];
      expect([
        before.denied.map((d) => d.id),
        before.included,
        after.denied,
        after.included.map((i) => i.id),
      ]).toEqual([[guard], [], [], [pytest]]);
      expect(before.output).toMatchObject(deny);
      expect(Object.keys(after.output)).toEqual([adviceKey]);
    },
  );

  it.each([
    ['claude-code', 'permissionDecision'],
    ['codex', 'permissionDecision'],
  ])('%s: one PreToolUse that denies, in hookSpecificOutput', (host, key) => {
    const { sandbox } = sandboxWithLessons();
    const run = sandbox.run([
      'explain',
      '--host',
      host,
      '--tool',
      'Bash',
      '--command',
      'rm -rf build',
      '--json',
    ]);
    const data = JSON.parse(run.stdout) as { output: { hookSpecificOutput: Record<string, unknown> } };
    expect(data.output.hookSpecificOutput[key]).toBe('deny');
  });

  it.each([
    [undefined, 'PostToolUseFailure'],
    ['codex', 'PostToolUse'],
  ])(
    '--output: the half after the call ran, where a lesson that waits for its error speaks (host %s)',
    (host, resultEvent) => {
      const sandbox = createSandbox();
      const id = sandbox.add(['--summary', 'ls of a missing path: test -e it first', ...LS_ERROR_TRIGGER]);
      const shown = sandbox.run(['show', id]);
      expect(shown.stdout).toContain('errors: No such file or directory');
      const args = [
        'explain',
        ...(host === undefined ? [] : ['--host', host]),
        '--tool',
        'Bash',
        '--command',
        'ls build',
        '--output',
        "ls: cannot access 'build': No such file or directory",
      ];
      const json = sandbox.run([...args, '--json']);
      expect(json.code).toBe(0);
      const { halves } = JSON.parse(json.stdout) as {
        halves: (Half & { dropped: { id: string; reason: string }[] })[];
      };
      const [before, after] = halves as [Half & { dropped: { id: string; reason: string }[] }, Half];
      expect(halves.map((h) => [h.hostEvent, h.phase])).toEqual([
        ['PreToolUse', null],
        [resultEvent, 'outcome'],
      ]);
      expect(before.included).toEqual([]);
      expect(before.dropped).toContainEqual(expect.objectContaining({ id, reason: 'awaits-error' }));
      expect(after.included.map((i) => i.id)).toEqual([id]);
      expect(after.output).toMatchObject({ hookSpecificOutput: { hookEventName: resultEvent } });
      const text = sandbox.run(args);
      expect(text.stdout).toContain(`${resultEvent}: after the call ran`);
      const other = sandbox.run([...args.slice(0, -1), 'ls: build: Permission denied', '--json']);
      const otherHalves = (JSON.parse(other.stdout) as { halves: Half[] }).halves;
      expect(otherHalves[1]?.included).toEqual([]);
      // without its errors it speaks before every ls again
      expect(sandbox.run(['update', id, '--unset', 'errors']).code).toBe(0);
      expect(sandbox.run(['show', id]).stdout).not.toContain('errors:');
      const open = JSON.parse(sandbox.run([...args, '--json']).stdout) as { halves: Half[] };
      expect(open.halves[0]?.included.map((i) => i.id)).toEqual([id]);
    },
  );

  it("a lesson scoped to agents (`lore add --agent`) is dropped in the others' hooks, and shown in its own", () => {
    const sandbox = createSandbox();
    const id = sandbox.add([
      '--summary',
      "Don't run cd on its own: each call starts in a new shell",
      '--command',
      '^\\s*cd\\s+\\S+\\s*$',
      '--agent',
      'gemini,codex',
    ]);
    expect(sandbox.run(['show', id]).stdout).toContain('agents: gemini, codex');
    const explain = (host: string) => {
      const run = sandbox.run(['explain', '--host', host, '--tool', 'Bash', '--command', 'cd app', '--json']);
      expect(run.code).toBe(0);
      const data = JSON.parse(run.stdout) as {
        halves?: (Half & { dropped: { id: string; reason: string }[] })[];
        included?: { id: string }[];
        dropped?: { id: string; reason: string }[];
      };
      const halves = data.halves ?? [data as Half & { dropped: { id: string; reason: string }[] }];
      return {
        shown: halves.flatMap((h) => h.included.map((i) => i.id)),
        dropped: halves.flatMap((h) => h.dropped.map((d) => [d.id, d.reason])),
      };
    };
    expect(explain('gemini').shown).toEqual([id]);
    expect(explain('codex').shown).toEqual([id]);
    expect(explain('claude-code')).toEqual({ shown: [], dropped: [[id, 'agent-mismatch']] });
    const unknown = sandbox.run(['add', '--summary', 'x y z', '--command', 'ls', '--agent', 'windsurf']);
    expect([unknown.code, unknown.stderr.includes('--agent windsurf: expected one of')]).toEqual([2, true]);
  });

  it('a prompt for Cursor, which has no hook that can answer one, is a usage error; an unknown host too', () => {
    const { sandbox } = sandboxWithLessons();
    const prompt = sandbox.run(['explain', '--host', 'cursor', '--prompt', 'run pytest']);
    expect([prompt.code, prompt.stderr.includes('cursor has no hook')]).toEqual([2, true]);
    const unknown = sandbox.run(['explain', '--host', 'windsurf', '--prompt', 'x']);
    expect([unknown.code, unknown.stderr.includes('--host must be one of')]).toEqual([2, true]);
  });
});
