/**
 * The `#lesson` self-reporting protocol, told to the agent at session and subagent start: when it
 * hits a mistake worth remembering, it writes one block that lore's capture picks up.
 */
export const LESSON_PROTOCOL = [
  'lore: this project keeps lessons from past mistakes. When you make or fix a mistake worth remembering',
  '(a command that failed for a non-obvious reason, a wrong assumption about this repository), report it',
  'once, in this exact form, in your reply:',
  '#lesson',
  'tool: Bash',
  'trigger: the command or file pattern it happens with, e.g. pytest tests/',
  'mistake: what went wrong',
  'fix: what to do instead',
  'tags: lang:python, tool:pytest',
  '#/lesson',
].join('\n');
