/**
 * The injections of the hook's audit log, one per lesson shown or guard that denied, each with the
 * delivery form that decides what it could have prevented (DESIGN.md §4) and what is known of the
 * call it preceded. Pure: a parsed audit line in, injections out; a line that is not an audit
 * record gives undefined (counted by the caller). Lines written before lore recorded call ids,
 * commands and paths still give injections: they are then linked by tool and time alone.
 */
import type { DeliveryForm } from '../replay/replay-report.js';
import { injectionId } from './outcome-record.js';

export type Injection = {
  /** `injectionId(session, time, lesson)`: what an outcome is counted once by. */
  id: string;
  lesson: string;
  session: string;
  /** The audit line's time (ISO). */
  time: string;
  form: DeliveryForm;
  /** The hook event (`PreToolUse`, `UserPromptSubmit`, `SessionStart`, ...). */
  event: string;
  /** The tool as the hook saw it (`Bash`, `Edit`, ...), for tool calls. */
  tool?: string;
  callId?: string;
  /** The command as the audit line kept it (cut). */
  command?: string;
  paths?: string[];
  transcript?: string;
  /** `after`: the line was written after the call ran (Gemini AfterTool, Cursor postToolUse). */
  phase?: 'before' | 'after' | 'outcome';
};

const PROMPT_EVENTS = new Set(['UserPromptSubmit', 'SessionStart', 'SubagentStart']);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const str = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

function ids(value: unknown): string[] | undefined {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return undefined;
  const out: string[] = [];
  for (const item of value) {
    if (!isObject(item) || typeof item.id !== 'string') return undefined;
    // a skill pointer stands in for the lessons of an aggregated skill: no lesson was shown
    if (item.covers === undefined) out.push(item.id);
  }
  return out;
}

/** How the lessons of an audit line reached the model. */
export function deliveryFormOf(line: { host?: unknown; event: string; phase?: unknown }): DeliveryForm {
  if (line.host === 'mcp' || PROMPT_EVENTS.has(line.event)) return 'before-call';
  return 'after-call';
}

/** The injections of one audit line (parsed JSON), or undefined when it is not an audit record. */
export function auditInjections(line: unknown): Injection[] | undefined {
  if (!isObject(line)) return undefined;
  const time = str(line.time);
  const session = str(line.session);
  const event = str(line.event);
  const shown = ids(line.lessons);
  const denied = ids(line.denied);
  if (time === undefined || session === undefined || event === undefined) return undefined;
  if (shown === undefined || denied === undefined || Number.isNaN(Date.parse(time))) return undefined;
  const tool = str(line.tool);
  const callId = str(line.call_id);
  const command = str(line.command);
  const transcript = str(line.transcript);
  const paths = Array.isArray(line.paths)
    ? line.paths.filter((path): path is string => typeof path === 'string')
    : [];
  const phase: Injection['phase'] =
    line.phase === 'after' || line.phase === 'before' ? line.phase : undefined;
  const about = {
    session,
    time,
    event,
    ...(tool === undefined ? {} : { tool }),
    ...(callId === undefined ? {} : { callId }),
    ...(command === undefined ? {} : { command }),
    ...(paths.length === 0 ? {} : { paths }),
    ...(transcript === undefined ? {} : { transcript }),
    ...(phase === undefined ? {} : { phase }),
  };
  const form = deliveryFormOf({ host: line.host, event, phase: line.phase });
  return [
    ...denied.map((lesson) => ({
      id: injectionId(session, time, lesson),
      lesson,
      form: 'guard' as const,
      ...about,
    })),
    ...shown.map((lesson) => ({ id: injectionId(session, time, lesson), lesson, form, ...about })),
  ];
}
