/**
 * What a model is asked: a system prompt that says what a lore lesson is and the one JSON shape to
 * answer with, and the candidate as JSON (its heuristic text, triggers, evidence and details).
 * Everything sent is redacted once more here, though capture redacted it before writing: a
 * candidate file may be older than a redaction rule, or edited by hand, and this is the one place
 * where its text leaves the machine.
 */
import { redactDeep } from '../capture/redact.js';
import type { RedactOptions } from '../capture/redact.js';
import type { CandidateRecord } from '../capture/merge-candidate.js';
import { SUMMARY_MAX } from '../lesson/constants.js';
import { candidateEvidence } from './candidate-evidence.js';
import { heuristicText } from './distill-info.js';

/** Changes whenever the prompt's meaning changes, so cached answers to an older prompt are not reused. */
export const DISTILL_PROMPT_VERSION = 1;

/** The candidate's details (its Markdown body) are cut to this many characters. */
const DETAILS_MAX = 3000;

export const DISTILL_SYSTEM = [
  'You turn a mistake an AI coding agent made, mined from its transcript, into a lesson that is injected',
  'into the agent the next time it is about to repeat the mistake. Answer with one JSON object and nothing',
  'else (no prose, no code fence, do not use tools), with exactly these keys:',
  '{',
  `  "summary": "one line, at most ${SUMMARY_MAX} characters: what to do, in the imperative or starting with When, naming the command, flag or path it concerns",`,
  '  "context": "the situation in which it applies",',
  '  "observation": "what went wrong, with the error as it was seen",',
  '  "implication": "why it matters",',
  '  "action": "what to do instead",',
  '  "trigger": {"commands": ["JavaScript regular expressions over a shell command"], "paths": ["globs over repository-relative paths"], "tools": ["agent tool names such as Bash, Edit, Read"]},',
  '  "tags": ["category:value tags, lowercase, such as lang:rust, tool:cargo, topic:testing"]',
  '}',
  'Rules: every trigger command regex must match at least one command in failedCommands, and every path',
  'glob at least one path in failedPaths, or the lesson is discarded; leave a trigger list empty to keep',
  'the current triggers. Never invent facts that the candidate does not show. Keep [REDACTED:...] markers',
  'as they are.',
].join('\n');

export type DistillPrompt = { system: string; user: string };

export function distillPrompt(record: CandidateRecord, redact: RedactOptions = {}): DistillPrompt {
  const heuristic = heuristicText(record);
  const evidence = candidateEvidence(record);
  const body = typeof record.body === 'string' ? record.body : '';
  const candidate = {
    kind: record.capture.kind,
    tool: record.capture.tool ?? null,
    summary: heuristic.summary,
    ...(heuristic.mistake !== undefined ? { mistake: heuristic.mistake } : {}),
    ...(heuristic.remediation !== undefined ? { remediation: heuristic.remediation } : {}),
    trigger: { commands: heuristic.commands, paths: heuristic.paths, tools: heuristic.tools },
    tags: heuristic.tags,
    failedCommands: evidence.commands,
    failedPaths: evidence.paths,
    details: body.length > DETAILS_MAX ? `${body.slice(0, DETAILS_MAX)}…` : body,
  };
  const user = `The candidate lesson:\n${JSON.stringify(redactDeep(candidate, redact), null, 2)}`;
  return { system: DISTILL_SYSTEM, user };
}
