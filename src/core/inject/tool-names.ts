/**
 * Other spellings of one tool, as lore compares them: `Task` is now `Agent` in Claude Code and
 * `MultiEdit` is folded into `Edit`; transcripts name the shell `exec_command`, `shell` or
 * `local_shell` (Codex) and `run_shell_command` (Gemini), and a Codex patch `apply_patch`, where the
 * hooks send `Bash` and lore's Codex adapter makes a patch an `Edit`; Gemini's file tools
 * (`read_file`, `write_file`, `replace`, `grep_search`, ...) are Claude's Read, Write, Edit, Grep.
 */
const ALIASES: Readonly<Record<string, string>> = {
  task: 'agent',
  multiedit: 'edit',
  exec_command: 'bash',
  shell: 'bash',
  local_shell: 'bash',
  run_shell_command: 'bash',
  apply_patch: 'edit',
  // Gemini CLI's file tools (its hooks and transcripts alike)
  read_file: 'read',
  read_many_files: 'read',
  write_file: 'write',
  replace: 'edit',
  grep_search: 'grep',
  search_file_content: 'grep',
};

/** Tool names as lessons and hosts spell them, compared case-insensitively; `mcp__server__*` wildcards match. */
export function normalizeTool(tool: string): string {
  const lower = tool.trim().toLowerCase();
  return ALIASES[lower] ?? lower;
}

/** Whether a lesson's tool list (normalized) admits `tool`; an empty list admits every tool. */
export function toolAllowed(lessonTools: readonly string[], tool: string | undefined): boolean {
  if (lessonTools.length === 0) return true;
  if (tool === undefined) return false;
  const wanted = normalizeTool(tool);
  return lessonTools.some((pattern) =>
    pattern.includes('*')
      ? new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`).test(wanted)
      : pattern === wanted,
  );
}
