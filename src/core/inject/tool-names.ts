/**
 * Tool names as lessons and hosts spell them. Compared case-insensitively; `Task` is now `Agent`
 * in Claude Code and `MultiEdit` is gone (folded into `Edit`); `mcp__server__*` wildcards match.
 */
export function normalizeTool(tool: string): string {
  const lower = tool.trim().toLowerCase();
  if (lower === 'task') return 'agent';
  if (lower === 'multiedit') return 'edit';
  return lower;
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
