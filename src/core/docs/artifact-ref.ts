/**
 * Ids in `related_artifacts`, dispatched by their prefix: a lore lesson id, an ADR (`ADR-0042`),
 * or a task id with one of the configured prefixes (`PROJ-123`). Anything else is an error.
 */
import { ID_PATTERN } from '../lesson/constants.js';

export const ARTIFACT_KINDS = ['lesson', 'adr', 'task'] as const;
export type ArtifactKind = (typeof ARTIFACT_KINDS)[number];

export type ArtifactRef = { ok: true; kind: ArtifactKind; id: string } | { ok: false; message: string };

const ADR = /^ADR-\d{4}$/;
const TASK = /^([A-Za-z][A-Za-z0-9_]*)-([A-Za-z0-9]+)$/;

export function classifyArtifact(id: string, taskPrefixes: readonly string[]): ArtifactRef {
  const value = id.trim();
  if (ID_PATTERN.test(value)) return { ok: true, kind: 'lesson', id: value };
  if (ADR.test(value)) return { ok: true, kind: 'adr', id: value };
  if (/^ADR-/i.test(value))
    return { ok: false, message: `"${value}": an ADR id is ADR- and four digits (ADR-0042)` };
  const task = TASK.exec(value);
  if (task && taskPrefixes.includes(task[1] ?? '')) return { ok: true, kind: 'task', id: value };
  const known = ['a lore lesson id', 'ADR-NNNN', ...taskPrefixes.map((prefix) => `${prefix}-<id>`)];
  return {
    ok: false,
    message:
      `"${value}" has an unknown prefix; expected ${known.join(', ')}` +
      (task ? ` (add "${task[1]}" to docs.taskPrefixes in .lore/config.yaml to accept it)` : ''),
  };
}
