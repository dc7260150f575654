// The Gemini CLI adapter, pure: recorded payloads in, the common shape and Gemini's JSON out.
import { describe, expect, it } from 'vitest';
import {
  geminiCallPhase,
  isGeminiPayload,
  normalizeGeminiPayload,
  toGeminiOutput,
} from '../../src/adapters/gemini/hook-adapter.js';
import { parseHookPayload } from '../../src/core/inject/parse-hook-input.js';
import type { HookDecision } from '../../src/core/inject/types.js';
import { payload } from '../helpers/hook-payloads.js';

const EMPTY = { included: [], denied: [], skipped: [] };

describe('normalizeGeminiPayload', () => {
  it.each([
    ['SessionStart', undefined, { event: 'SessionStart', source: 'startup' }],
    ['BeforeAgent', undefined, { event: 'UserPromptSubmit', prompt: 'LESSONS_TEST run echo' }],
    ['BeforeTool', 'run_shell_command', { event: 'PreToolUse', tool: 'Bash', command: 'echo hi-gemini' }],
    ['AfterTool', 'run_shell_command', { event: 'PreToolUse', tool: 'Bash', command: 'echo hi-gemini' }],
  ])('%s (%s) parses as lore event %o', (event, tool, expected) => {
    const parsed = parseHookPayload(normalizeGeminiPayload(payload('gemini', event, tool)));
    expect(parsed).toMatchObject({
      ...expected,
      sessionId: 'de10ef8f-5a5f-4960-826b-c4048fe558b7',
      cwd: '/home/dev/work/proj',
      agentId: 'main',
    });
  });

  it.each([
    ['read_file', { file_path: 'a/b.ts' }, 'Read', ['/home/dev/work/proj/a/b.ts']],
    ['read_file', { absolute_path: '/x/y.ts' }, 'Read', ['/x/y.ts']],
    ['write_file', { file_path: '/x/w.ts', content: 'c' }, 'Write', ['/x/w.ts']],
    [
      'replace',
      { file_path: 'r.ts', old_string: 'a', new_string: 'b' },
      'Edit',
      ['/home/dev/work/proj/r.ts'],
    ],
    [
      'read_many_files',
      { include: ['a.ts', 'docs/*.md', 7] },
      'Read',
      ['/home/dev/work/proj/a.ts', '/home/dev/work/proj/docs/*.md'],
    ],
    ['glob', { pattern: '**/*.sql', dir_path: 'db' }, 'Glob', ['/home/dev/work/proj/db/**/*.sql']],
    [
      'grep_search',
      { pattern: 'x', dir_path: 'src', include_pattern: '*.ts' },
      'Grep',
      ['/home/dev/work/proj/src', '/home/dev/work/proj/**/*.ts'],
    ],
  ])('%s %o is %s on %o', (tool, input, claudeTool, paths) => {
    const raw = { ...payload('gemini', 'AfterTool'), tool_name: tool, tool_input: input };
    expect(parseHookPayload(normalizeGeminiPayload(raw))).toMatchObject({ tool: claudeTool, paths });
  });

  it.each(['web_fetch', 'list_directory', 'mcp_lore_lore_search', 'write_todos'])(
    '%s is not handled',
    (tool) => {
      const raw = { ...payload('gemini', 'BeforeTool'), tool_name: tool, tool_input: { file_path: 'a' } };
      expect(parseHookPayload(normalizeGeminiPayload(raw))).toBeUndefined();
    },
  );

  it.each(['AfterAgent', 'SessionEnd'])('%s is not an event lore handles', (event) => {
    expect(parseHookPayload(normalizeGeminiPayload(payload('gemini', event)))).toBeUndefined();
  });

  it('keeps of the tool response only its text, as tool_output (the parse stage cuts it)', () => {
    const normalized = normalizeGeminiPayload(payload('gemini', 'AfterTool')) as Record<string, unknown>;
    expect(Object.keys(normalized).sort()).toEqual([
      'cwd',
      'hook_event_name',
      'session_id',
      'tool_input',
      'tool_name',
      'tool_output',
      'transcript_path',
    ]);
    expect(normalized.tool_output).toContain('hi-gemini');
    const before = normalizeGeminiPayload(payload('gemini', 'BeforeTool')) as Record<string, unknown>;
    expect(before.tool_output).toBeUndefined();
  });
});

describe('phase and host', () => {
  it.each([
    ['BeforeTool', 'before'],
    ['AfterTool', 'after'],
    ['BeforeAgent', undefined],
    ['SessionStart', undefined],
  ])('%s is the %s half of a call', (event, phase) => {
    expect(geminiCallPhase(payload('gemini', event))).toBe(phase);
  });

  it.each([
    [payload('gemini', 'BeforeTool'), {}, true],
    [payload('gemini', 'SessionStart'), {}, false],
    [payload('gemini', 'SessionStart'), { GEMINI_SESSION_ID: 'de10ef8f-5a5f-4960-826b-c4048fe558b7' }, true],
    [payload('gemini', 'SessionStart'), { GEMINI_SESSION_ID: 'another-session' }, false],
    [payload('claude', 'SessionStart'), {}, false],
    ['text', {}, false],
  ])('isGeminiPayload %#', (raw, env, expected) => {
    expect(isGeminiPayload(raw, env)).toBe(expected);
  });
});

describe('toGeminiOutput', () => {
  const decision = (fields: Partial<HookDecision>): HookDecision => ({
    event: 'PreToolUse',
    plan: EMPTY,
    ...fields,
  });
  it.each([
    [decision({ deny: 'no' }), { decision: 'deny', reason: 'no' }],
    [
      decision({ context: 'c' }),
      { hookSpecificOutput: { hookEventName: 'AfterTool', additionalContext: 'c' } },
    ],
    [
      decision({ event: 'UserPromptSubmit', context: 'p' }),
      { hookSpecificOutput: { hookEventName: 'BeforeAgent', additionalContext: 'p' } },
    ],
    [
      decision({ event: 'SessionStart', context: 's' }),
      { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 's' } },
    ],
    [decision({}), {}],
  ])('%o -> %o', (input, expected) => {
    expect(toGeminiOutput(input)).toEqual(expected);
  });
});
