// The committed hook bundle, spawned as each agent spawns it, on the event that reports a call's
// result: a lesson that waits for its error is held back before the call and speaks after a call
// that printed it, under the host's own event name; the audit log says it came after the call.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../helpers/cli.js';
import { LS_ERROR_TRIGGER } from '../helpers/error-lesson.js';
import { payload } from '../helpers/hook-payloads.js';
import { inRepo, output, runHookBundle } from '../helpers/hook.js';

function errorSandbox() {
  const sandbox = createSandbox();
  const id = sandbox.add([
    '--summary',
    'ls of a path that may not exist: check it with test -e first',
    ...LS_ERROR_TRIGGER,
  ]);
  return { sandbox, id };
}

describe('a lesson that waits for its error, in the hook', () => {
  it('Claude Code: nothing before the call; after a failure with its error, context under PostToolUseFailure', () => {
    const { sandbox, id } = errorSandbox();
    const pre = inRepo(sandbox, payload('claude', 'PreToolUse'), {
      session_id: 'err-1',
      tool_name: 'Bash',
      tool_input: { command: 'ls build' },
    });
    const before = runHookBundle(sandbox, pre);
    expect([before.code, before.stdout.trim()]).toEqual([0, '{}']);
    const other = runHookBundle(sandbox, {
      ...pre,
      hook_event_name: 'PostToolUseFailure',
      error: 'Exit code 2\nls: build: Permission denied',
    });
    expect([other.code, other.stdout.trim()]).toEqual([0, '{}']);
    const failed = runHookBundle(sandbox, {
      ...pre,
      hook_event_name: 'PostToolUseFailure',
      tool_use_id: 'toolu_err',
      error: "Exit code 2\nls: cannot access 'build': No such file or directory",
      is_interrupt: false,
    });
    expect(failed.code).toBe(0);
    const out = output(failed).hookSpecificOutput;
    expect(out?.hookEventName).toBe('PostToolUseFailure');
    expect(out?.additionalContext).toContain(`[lore ${id}]`);
    const again = runHookBundle(sandbox, {
      ...pre,
      hook_event_name: 'PostToolUseFailure',
      error: 'ls: build: No such file or directory',
    });
    expect(again.stdout.trim()).toBe('{}'); // shown once per session
    const audit = readFileSync(join(sandbox.repo, '.lore', 'cache', 'audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(audit.at(-1)).toMatchObject({ phase: 'outcome', call_id: 'toolu_err', command: 'ls build' });
  });

  it('Codex: PostToolUse with the output (recorded payload) gets the lesson under PostToolUse', () => {
    const { sandbox, id } = errorSandbox();
    const recorded = payload('codex', 'PostToolUse');
    const failing = inRepo(sandbox, recorded, {
      session_id: 'err-2',
      tool_input: { command: 'ls /definitely/not/here' },
      tool_response: "ls: cannot access '/definitely/not/here': No such file or directory\n",
    });
    const result = runHookBundle(sandbox, failing, { args: ['--host', 'codex'] });
    expect(result.code).toBe(0);
    const out = output(result).hookSpecificOutput;
    expect(out?.hookEventName).toBe('PostToolUse');
    expect(out?.additionalContext).toContain(`[lore ${id}]`);
    const fine = runHookBundle(sandbox, { ...failing, session_id: 'err-3', tool_response: 'a\nb\n' });
    expect(fine.stdout.trim()).toBe('{}');
  });

  it('Gemini CLI: AfterTool with the error in its result gets the lesson', () => {
    const { sandbox, id } = errorSandbox();
    const after = inRepo(sandbox, payload('gemini', 'AfterTool'), {
      session_id: 'err-4',
      tool_input: { command: 'ls build' },
      tool_response: {
        llmContent: 'Output: ls: build: No such file or directory\nExit Code: 2',
        returnDisplay: '',
      },
    });
    const result = runHookBundle(sandbox, after, { args: ['--host', 'gemini'] });
    expect(output(result).hookSpecificOutput?.additionalContext).toContain(`[lore ${id}]`);
  });

  it('a result event that is not JSON lore can read answers {} and exits 0', () => {
    const { sandbox } = errorSandbox();
    const broken = { hook_event_name: 'PostToolUseFailure', session_id: 'x', cwd: sandbox.repo, error: 42 };
    const result = runHookBundle(sandbox, broken);
    expect([result.code, result.stdout.trim()]).toEqual([0, '{}']);
  });
});
