/**
 * A candidate's two wordings side by side, for review (`lore candidates show`, `lore review`, the
 * dashboard's review page): capture's heuristic text, and the model's distilled text when one was
 * applied, with how the last distillation went and the evidence both rest on.
 */
import type { CandidateRecord } from '../capture/merge-candidate.js';
import { candidateEvidence } from './candidate-evidence.js';
import type { CandidateEvidence } from './candidate-evidence.js';
import { distillInfoOf, heuristicText } from './distill-info.js';
import type { DistillStatus, HeuristicText } from './distill-info.js';

export type DistilledText = {
  summary: string;
  context: string | null;
  observation: string | null;
  implication: string | null;
  action: string | null;
  tools: string[];
  commands: string[];
  paths: string[];
  tags: string[];
};

export type DistillComparison = {
  /** How the last distillation went; null when none was tried. */
  status: DistillStatus | null;
  note: string | null;
  provider: string | null;
  model: string | null;
  at: string | null;
  heuristic: HeuristicText;
  /** The text the candidate has now, when a distillation was applied. */
  distilled: DistilledText | null;
  /** The failed commands, paths and tools both wordings rest on. */
  evidence: CandidateEvidence;
};

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];

export function distillComparison(record: CandidateRecord): DistillComparison {
  const info = distillInfoOf(record);
  const distilled: DistilledText | null =
    info?.heuristic === undefined
      ? null
      : {
          summary: record.summary,
          context: text(record.context),
          observation: text(record.observation),
          implication: text(record.implication),
          action: text(record.action),
          tools: strings(record.tools),
          commands: strings(record.commands),
          paths: strings(record.paths),
          tags: strings(record.tags),
        };
  return {
    status: info?.status ?? null,
    note: info?.note ?? null,
    provider: info?.provider ?? null,
    model: info?.model ?? null,
    at: info?.at ?? null,
    heuristic: info?.heuristic ?? heuristicText(record),
    distilled,
    evidence: candidateEvidence(record),
  };
}
