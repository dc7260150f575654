/**
 * The learnings sidecar: answers of `lore mcp` that reference file paths carry the lessons scoped
 * to those paths, `[{id, summary, matched_by}]`, up to a cap. When the session is known
 * (`CLAUDE_CODE_SESSION_ID`, `LORE_SESSION_ID`) it shares the hook's dedup state: lessons the hook
 * (or an earlier answer) already showed in this session are skipped, and the ones shown here are
 * claimed, so the hook will not inject them again. Each showing is logged to the audit log.
 */
import { relative, isAbsolute } from 'node:path';
import { toRepoPath } from '../../core/match/repo-path.js';
import { appendAudit } from '../hook-state/audit-log.js';
import { openSessionState } from '../hook-state/session-state.js';
import type { Workspace } from '../workspace/workspace.js';

export type Learning = { id: string; summary: string; matched_by: string[] };

export type SidecarContext = {
  sessionId: string | undefined;
  tmpdir: string;
  uid: number | string;
  nowMs: number;
  /** At most this many learnings per answer. */
  cap: number;
};

/** The session an MCP server runs in, when its host says: Claude Code's id first, then lore's own. */
export function sessionIdFrom(env: NodeJS.ProcessEnv): string | undefined {
  for (const name of ['CLAUDE_CODE_SESSION_ID', 'LORE_SESSION_ID'] as const) {
    const value = env[name]?.trim();
    if (value) return value;
  }
  return undefined;
}

/** A path as the index matches it: repository-relative with forward slashes; outside the repository: undefined. */
export function repoPathOf(ws: Workspace, path: string): string | undefined {
  const root = ws.projectRoot ?? ws.cwd;
  const rel = isAbsolute(path) ? relative(root, path) : path.replace(/^\.\//, '');
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return undefined;
  return toRepoPath(rel);
}

/**
 * The learnings for `paths`, leaving out `exclude` (the lessons the answer itself carries), lessons
 * the hook would not inject (needs review, under the confidence floor) and, in a known session,
 * those already shown in it.
 */
export async function collectLearnings(
  ws: Workspace,
  paths: readonly string[],
  exclude: ReadonlySet<string>,
  ctx: SidecarContext,
  tool: string,
): Promise<Learning[]> {
  const repoPaths = [...new Set(paths.map((path) => repoPathOf(ws, path)).filter((p) => p !== undefined))];
  if (repoPaths.length === 0 || ctx.cap <= 0) return [];
  const state =
    ctx.sessionId === undefined ? undefined : openSessionState(ctx.tmpdir, ctx.sessionId, 'main', ctx.uid);
  const minConfidence = ws.config.inject.minConfidence;
  const picked = new Map<string, Learning>();
  const shown = state ? state.seen.size + state.seenElsewhere.size : 0;
  for (const path of repoPaths) {
    // Enough ranked lessons to fill the cap after skipping the excluded and the already shown.
    const enough = ctx.cap + exclude.size + picked.size + shown;
    const listed = await ws.index.list(
      { status: 'active', path, injectable: { minConfidence } },
      ctx.nowMs,
      ws.halfLifeDays,
      enough,
    );
    for (const item of listed) {
      if (picked.size >= ctx.cap) break;
      const { lesson } = item;
      if (exclude.has(lesson.id) || picked.has(lesson.id)) continue;
      if (lesson.priority < (ws.config.inject.minPriority ?? 1)) continue;
      if (state && (state.seen.has(lesson.id) || state.seenElsewhere.has(lesson.id))) continue;
      if (state && !state.claim(lesson.id, lesson.priority)) continue;
      picked.set(lesson.id, { id: lesson.id, summary: lesson.summary, matched_by: item.matchedBy });
    }
  }
  const learnings = [...picked.values()];
  if (learnings.length > 0) {
    try {
      appendAudit(ws.cacheDir, {
        time: new Date(ctx.nowMs).toISOString(),
        host: 'mcp',
        session: ctx.sessionId ?? '',
        agent: 'main',
        event: 'McpToolCall',
        tool,
        source: null,
        lessons: learnings.map((item) => ({ id: item.id, matched_by: item.matched_by, form: 'summary' })),
        denied: [],
        bytes: 0,
        dropped: [],
        dropped_count: 0,
      });
    } catch {
      // the audit log is analytics: an unwritable cache never fails an answer
    }
  }
  return learnings;
}
