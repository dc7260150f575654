/** An episode: what the detectors found in the event stream, before it becomes a candidate. */
import type { Agent, ToolCall, ToolResult } from './events.js';
import type { LessonBlock } from './lesson-block.js';

export const EPISODE_KINDS = [
  'lesson-block',
  'error-fix',
  'user-correction',
  'retry-loop',
  'timeout',
  'self-diagnosis',
] as const;
export type EpisodeKind = (typeof EPISODE_KINDS)[number];

export type EvidenceRef = { file: string; line: number };

/** What the scoring formulas look at. */
export type EpisodeSignals = {
  /** error → a different retry → success. */
  fixConfirmed: boolean;
  userCorrection: boolean;
  /** The agent explained the cause ("the issue is", "root cause"). */
  causal: boolean;
  hang: boolean;
  /** Three or more goes at the same target, not all alike: a retry loop with modifications. */
  retry: boolean;
  /** Data loss or a failure that carried no error flag at all. */
  dataLoss: boolean;
  silentFailure: boolean;
  /** The agent reported it itself (a #lesson block or its own diagnosis). */
  selfReported: boolean;
};

export type Attempt = { call: ToolCall; result: ToolResult };

export type Episode = {
  kind: EpisodeKind;
  tier: 1 | 2;
  agent: Agent;
  session: string;
  project: string | undefined;
  timestamp: string | undefined;
  /** The tool the lesson is about. */
  tool: string | undefined;
  /** Failed attempts, oldest first. */
  failures: Attempt[];
  /** The call that worked, when one did. */
  fix: ToolCall | undefined;
  /** A different call between the failure and the identical retry that made it work (Read before Edit). */
  enabler: ToolCall | undefined;
  /**
   * The program the agent switched to, when the fix runs a different program it named as the
   * failed one's replacement (`Invoke-WebRequest` for PowerShell's `curl` alias).
   */
  replacement?: string;
  userText: string | undefined;
  /** The agent's own explanation, when it gave one. */
  diagnosis: string | undefined;
  block: LessonBlock | undefined;
  signals: EpisodeSignals;
  evidence: EvidenceRef[];
  /**
   * A #lesson block joined with the heuristic find of the same episode (block-lesson.ts): that
   * find as it was, and the block's own line; a repeat of either merges into this one.
   */
  joined?: { heuristic: Episode; blockRef: EvidenceRef };
};

export function noSignals(): EpisodeSignals {
  return {
    fixConfirmed: false,
    userCorrection: false,
    causal: false,
    hang: false,
    retry: false,
    dataLoss: false,
    silentFailure: false,
    selfReported: false,
  };
}
