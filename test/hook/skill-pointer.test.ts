// The committed hook bundle with an aggregated tool skill: one pointer to the skill instead of the
// tool's lessons, once per session; `lore explain` says the skill stood in and why.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSessionState } from '../../src/store/hook-state/session-state.js';
import { createSandbox } from '../helpers/cli.js';
import type { Sandbox } from '../helpers/cli.js';
import { payload } from '../helpers/hook-payloads.js';
import { inRepo, output, runHookBundle } from '../helpers/hook.js';

const POINTER = "[lore skill lore-pytest] This project's 5 lessons about pytest";

function bash(sandbox: Sandbox, command: string) {
  return inRepo(sandbox, payload('claude', 'PreToolUse', 'Bash'), {
    tool_input: { command, description: 'x' },
  });
}

function skillSandbox(): { sandbox: Sandbox; ids: string[] } {
  const sandbox = createSandbox();
  const ids = [1, 2, 3, 4, 5].map((n) =>
    sandbox.add([
      '--summary',
      `pytest lesson ${n}`,
      '--tag',
      'tool:pytest',
      '--command',
      '\\bpytest\\b',
      '--priority',
      String(9 - n),
    ]),
  );
  return { sandbox, ids };
}

type ExplainJson = {
  included: { id: string; form: string; skill?: { name: string; path: string; lessons: string[] } }[];
  dropped: { id: string; reason: string; skill?: string }[];
  additionalContext: string | null;
};

describe('aggregated tool skills in the hook', () => {
  it('points at the skill once per session instead of injecting the lessons', () => {
    const { sandbox, ids } = skillSandbox();
    const before = runHookBundle(sandbox, bash(sandbox, 'pytest -x'));
    expect(output(before).hookSpecificOutput?.additionalContext).toContain(
      `[lore ${ids[0]}] pytest lesson 1`,
    );
    expect(output(before).hookSpecificOutput?.additionalContext).not.toContain('lore skill');

    expect(sandbox.run(['aggregate']).code).toBe(0);
    const session = { session_id: 'skill-session' };
    const first = runHookBundle(sandbox, { ...bash(sandbox, 'pytest -x'), ...session });
    const context = output(first).hookSpecificOutput?.additionalContext ?? '';
    expect(context).toContain(
      `${POINTER}, each with its fix, are in the skill lore-pytest (.claude/skills/lore-pytest/SKILL.md)`,
    );
    expect(context).toContain(`Matched here: [lore ${ids[0]}] pytest lesson 1`);
    expect(context).not.toContain('pytest lesson 2');
    expect(runHookBundle(sandbox, { ...bash(sandbox, 'pytest -k slow'), ...session }).stdout.trim()).toBe(
      '{}',
    );
    const audit = readFileSync(sandbox.inRepo('.lore', 'cache', 'audit.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(JSON.parse(audit.at(-1) ?? '{}')).toMatchObject({
      lessons: [{ id: 'lore-pytest', form: 'full', covers: ids }],
    });
  });

  it('lore explain shows the skill standing in for the lessons, and the lessons it covered', () => {
    const { sandbox, ids } = skillSandbox();
    sandbox.run(['aggregate']);
    const run = sandbox.run(['explain', '--tool', 'Bash', '--command', 'pytest -x']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/lore-pytest {2}skill \(full\)\s+aggregated skill: 5 lessons about pytest/);
    expect(run.stdout).toContain(
      `a pointer to the aggregated skill .claude/skills/lore-pytest/SKILL.md stands in for ${ids.join(', ')}`,
    );
    expect(run.stdout).toContain(`${ids[1]}  in-skill lore-pytest`);
    expect(run.stdout).toContain('in-skill: the lesson is in an aggregated tool skill');
    const data = sandbox
      .run(['explain', '--tool', 'Bash', '--command', 'pytest -x', '--json'])
      .json<ExplainJson>();
    expect(data.included).toEqual([
      expect.objectContaining({
        id: 'lore-pytest',
        skill: { name: 'lore-pytest', path: '.claude/skills/lore-pytest/SKILL.md', lessons: ids },
      }),
    ]);
    expect(data.dropped.map((d) => [d.id, d.reason, d.skill])).toEqual([
      [ids[1], 'in-skill', 'lore-pytest'],
      [ids[2], 'in-skill', 'lore-pytest'],
      [ids[3], 'in-skill', 'lore-pytest'],
      [ids[4], 'in-skill', 'lore-pytest'],
    ]);
  });
});

describe('the session state claims skill pointers like lessons', () => {
  const base = mkdtempSync(join(tmpdir(), 'lore-skill-state-'));
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('a skill name is claimed once per session and survives a reopening; unsafe names are refused', () => {
    const state = openSessionState(base, 's1', 'main', 0);
    expect([state.claim('lore-pytest', 8), state.claim('lore-pytest', 8)]).toEqual([true, false]);
    expect(openSessionState(base, 's1', 'main', 0).seen.has('lore-pytest')).toBe(true);
    expect(openSessionState(base, 's1', 'agent-2', 0).seenElsewhere.has('lore-pytest')).toBe(true);
    expect(
      ['../x', 'a/b', '-lead', 'A-b', 'a.b', `a${'-'.repeat(64)}`].map((id) => state.claim(id, 1)),
    ).toEqual([false, false, false, false, false, false]);
  });
});
