/**
 * Which transcript call an injection preceded. A tool call's injection is found by the host's call
 * id when the audit line has one; else (older audit lines, hosts without ids) by the same kind of
 * call (tool family, and command or path) nearest its time: at or after it for a hook that runs
 * before the call, at or before it for one that runs after the call (Gemini AfterTool). A prompt's or session start's
 * injection precedes the first call made at or after its time. Pure.
 */
import type { ReplayCall } from '../outcome/call-outcome.js';
import type { Injection } from './audit-injections.js';

/**
 * How far before the audit line a call's transcript time may be: an agent writes the call to its
 * transcript a moment before its PreToolUse hook runs.
 */
export const LINK_SKEW_MS = 120_000;

export type InjectionLink =
  { index: number; by: 'call-id' | 'call-match' } | { index: undefined; by: 'none' };

/** The family of a hook tool name, as `targetOf` names transcript calls' families. */
export function hookToolFamily(tool: string): string {
  const lower = tool.toLowerCase();
  if (lower === 'bash') return 'shell';
  if (lower === 'edit' || lower === 'multiedit' || lower === 'write' || lower === 'notebookedit')
    return 'edit';
  if (lower === 'read') return 'read';
  return lower;
}

function sameCommand(kept: string, command: string | undefined): boolean {
  if (command === undefined) return false;
  return command.startsWith(kept) || command.includes(kept.trim());
}

function samePath(kept: readonly string[], call: ReplayCall): boolean {
  return call.keys.some(
    (key) =>
      key !== '?' && kept.some((path) => path === key || path.endsWith(`/${key.replace(/^\.\//, '')}`)),
  );
}

/** Whether a transcript call is the kind of call an audit line describes (without ids). */
export function describesCall(injection: Injection, call: ReplayCall): boolean {
  if (injection.tool === undefined) return false;
  const family = hookToolFamily(injection.tool);
  if (family !== call.family && !(family === injection.tool.toLowerCase() && call.tool === injection.tool))
    return false;
  if (injection.command !== undefined) return sameCommand(injection.command, call.command);
  if (injection.paths !== undefined && injection.paths.length > 0) return samePath(injection.paths, call);
  return true;
}

function msOf(time: string | undefined): number | undefined {
  if (time === undefined) return undefined;
  const ms = Date.parse(time);
  return Number.isNaN(ms) ? undefined : ms;
}

/** The call of `calls` (one session, in order) an injection preceded. */
export function linkInjection(injection: Injection, calls: readonly ReplayCall[]): InjectionLink {
  const at = Date.parse(injection.time);
  if (injection.form === 'before-call') {
    const index = calls.findIndex((call) => {
      const ms = msOf(call.time);
      return ms !== undefined && ms >= at;
    });
    return index < 0 ? { index: undefined, by: 'none' } : { index, by: 'call-match' };
  }
  if (injection.callId !== undefined) {
    const index = calls.findIndex((call) => call.callId === injection.callId);
    if (index >= 0) return { index, by: 'call-id' };
  }
  let best: { index: number; distance: number } | undefined;
  calls.forEach((call, index) => {
    const ms = msOf(call.time);
    if (ms === undefined || !describesCall(injection, call)) return;
    let distance: number;
    if (injection.phase === 'after') {
      // written once the call had run, however long it ran: the latest such call before it
      if (ms > at + LINK_SKEW_MS) return;
      distance = ms <= at ? at - ms : (ms - at) * 2;
    } else {
      if (ms < at - LINK_SKEW_MS) return;
      // a call at or after the injection is preferred to one written just before it
      distance = ms >= at ? ms - at : (at - ms) * 2;
    }
    if (best === undefined || distance < best.distance) best = { index, distance };
  });
  return best === undefined ? { index: undefined, by: 'none' } : { index: best.index, by: 'call-match' };
}
