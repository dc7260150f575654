/**
 * Codex CLI (0.169.0): Claude-shaped hooks, with these differences:
 * - output objects are checked strictly (unknown keys are errors), so only the documented keys go
 *   out; there is no SubagentStart event;
 * - hook context is capped near 2,500 tokens: at most 8,000 characters;
 * - file edits arrive as `apply_patch` with the patch text in `tool_input.command`: the paths
 *   named in its `*** Add/Update/Delete File:` lines become an `Edit` call's paths, and its added
 *   lines (`+...`, without the `+`) the text it writes, for lessons' `contents` patterns;
 * - a call's result comes as `PostToolUse` with the output text as `tool_response`, failed or not
 *   (there is no PostToolUseFailure): the `outcome` half, as for Claude Code.
 */
import { toHookSpecificOutput } from '../../core/inject/format-decision.js';
import { normalizeResultPayload, resultCallPhase } from '../claude-code/hook-adapter.js';
import { CONTENT_LIMIT } from '../../core/inject/written-content.js';
import type { HookAdapter, HookDecision } from '../../core/inject/types.js';

const PATCH_FILE = /^\*\*\* (?:Add|Update|Delete) File: (.+)$/gm;
const PATCH_MOVE = /^\*\*\* Move to: (.+)$/gm;

/** Whether a payload came from Codex: it carries `turn_id`, or its transcript is a rollout file. */
export function isCodexPayload(raw: unknown): boolean {
  if (raw === null || typeof raw !== 'object') return false;
  const payload = raw as Record<string, unknown>;
  return (
    typeof payload.turn_id === 'string' ||
    (typeof payload.transcript_path === 'string' && isRolloutPath(payload.transcript_path))
  );
}

/**
 * A Codex transcript path, `/\/rollout-[^/]*\.jsonl(\.zst)?$/`: its last segment is
 * `rollout-*.jsonl` or `rollout-*.jsonl.zst`. Without a regex: every hook call of every host asks
 * (a regex costs a fresh process tens of microseconds to compile).
 */
export function isRolloutPath(path: string): boolean {
  const slash = path.lastIndexOf('/');
  if (slash < 0) return false;
  const name = path.slice(slash + 1);
  if (!name.startsWith('rollout-')) return false;
  const end = name.endsWith('.jsonl.zst') ? name.length - 4 : name.length;
  return end >= 'rollout-.jsonl'.length && name.slice(0, end).endsWith('.jsonl');
}

export function normalizeCodexPayload(raw: unknown): unknown {
  if (raw === null || typeof raw !== 'object') return raw;
  const payload = normalizeResultPayload(raw) as Record<string, unknown>;
  const input = payload.tool_input as Record<string, unknown> | undefined;
  const patch =
    typeof input?.command === 'string'
      ? input.command
      : typeof input?.patch === 'string'
        ? input.patch
        : undefined;
  const isPatch =
    payload.tool_name === 'apply_patch' || (patch !== undefined && patch.startsWith('*** Begin Patch'));
  if (!isPatch || patch === undefined) return payload;
  const paths = [...patch.matchAll(PATCH_FILE), ...patch.matchAll(PATCH_MOVE)]
    .map((m) => (m[1] ?? '').trim())
    .slice(0, 32);
  return { ...payload, tool_name: 'Edit', tool_input: { paths, content: addedLines(patch) } };
}

/** The lines a patch adds, without their `+`, joined (cut at the content cap: never more is matched). */
export function addedLines(patch: string): string {
  const out: string[] = [];
  let size = 0;
  for (const line of patch.slice(0, CONTENT_LIMIT * 2).split('\n')) {
    if (!line.startsWith('+') || size >= CONTENT_LIMIT) continue;
    out.push(line.slice(1));
    size += line.length;
  }
  return out.join('\n');
}

export function toCodexOutput(decision: HookDecision): Record<string, unknown> {
  if (decision.event === 'SubagentStart') return {};
  return toHookSpecificOutput(decision);
}

export const codexAdapter: HookAdapter = {
  host: 'codex',
  normalizeInput: normalizeCodexPayload,
  maxChars: 8_000,
  events: ['PreToolUse', 'UserPromptSubmit', 'SessionStart'],
  toOutput: toCodexOutput,
  callPhase: resultCallPhase,
};
