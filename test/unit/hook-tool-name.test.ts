/** Captured lessons are scoped to the tool names the hooks send, not the transcripts' spellings. */
import { describe, expect, it } from 'vitest';
import { hookToolName } from '../../src/core/capture/classify-result.js';
import { toolAllowed, normalizeTool } from '../../src/core/inject/tool-names.js';

describe('hookToolName', () => {
  it.each([
    ['exec_command', 'Bash'],
    ['shell', 'Bash'],
    ['local_shell', 'Bash'],
    ['run_shell_command', 'Bash'],
    ['Bash', 'Bash'],
    ['apply_patch', 'Edit'],
    ['Edit', 'Edit'],
    ['Read', 'Read'],
    ['mcp__github__create_issue', 'mcp__github__create_issue'],
  ])('%s -> %s', (transcriptTool, expected) => {
    expect(hookToolName(transcriptTool)).toBe(expected);
  });

  it.each([
    ['exec_command', 'Bash'],
    ['apply_patch', 'Edit'],
  ])('a lesson captured from a Codex %s call admits the hook call %s', (transcriptTool, hookTool) => {
    const lessonTools = [normalizeTool(hookToolName(transcriptTool))];
    expect(toolAllowed(lessonTools, hookTool)).toBe(true);
    expect(toolAllowed([normalizeTool(transcriptTool)], hookTool)).toBe(false);
  });
});
