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
    ['shell', 'Bash'],
    ['run_shell_command', 'Bash'],
    ['apply_patch', 'Edit'],
    ['Task', 'Agent'],
    ['MultiEdit', 'Edit'],
  ])(
    'the matcher takes a lesson scoped to %s for the hook call %s, as captured or as written',
    (transcriptTool, hookTool) => {
      expect(toolAllowed([normalizeTool(hookToolName(transcriptTool))], hookTool)).toBe(true);
      expect(toolAllowed([normalizeTool(transcriptTool)], hookTool)).toBe(true);
      expect(toolAllowed([normalizeTool(transcriptTool)], 'Read')).toBe(false);
    },
  );
});
