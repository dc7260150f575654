/**
 * What a candidate rests on, as the things a trigger fires on: the shell commands that failed (or
 * that an agent's `#lesson` block names as its trigger), the repository paths the failed calls
 * acted on, and the tools. A distilled trigger is kept only
 * when it still fires on this evidence: a model may word a lesson better, but a regex that no
 * longer matches the command that failed would make the lesson silent.
 *
 * Read from the candidate record itself (its body, written by `draftBody`, and its own triggers),
 * so a candidate whose transcripts are gone can still be checked.
 */
import { isShellTool } from '../capture/classify-result.js';
import type { CandidateRecord } from '../capture/merge-candidate.js';
import { heuristicText } from './distill-info.js';

export type CandidateEvidence = {
  /** Failed shell commands, as the transcript had them (redacted). */
  commands: string[];
  /** Repository-relative paths the failed calls acted on. */
  paths: string[];
  tools: string[];
};

const WILDCARD = /[*?[\]{}()!]/;

/** The code block after each `What failed:` heading of a draft body. */
function failedCommands(body: string): string[] {
  return [...body.matchAll(/^What failed:\n\n```\n([^\n]+)\n```/gm)].map((m) => (m[1] ?? '').trim());
}

/**
 * The trigger of the agent's own `#lesson` block (`The agent's #lesson block: {...}`), when it
 * names a shell command: a block may come without any failed call in the transcript.
 */
function blockCommands(body: string): string[] {
  const json = /^The agent's #lesson block: (\{.*\})$/m.exec(body)?.[1];
  if (json === undefined) return [];
  try {
    const block = JSON.parse(json) as { tool?: unknown; trigger?: unknown };
    const shell = typeof block.tool !== 'string' || isShellTool(block.tool);
    return shell && typeof block.trigger === 'string' && block.trigger.trim() !== ''
      ? [block.trigger.trim()]
      : [];
  } catch {
    return [];
  }
}

/** `What failed: Edit /path/to/file`, the form a draft body gives a failed non-shell call. */
function failedTargets(body: string): string[] {
  return [...body.matchAll(/^What failed: \S+ (\S+)$/gm)].map((m) => m[1] ?? '');
}

function relativeTo(path: string, projects: readonly string[]): string | undefined {
  const normal = path.replace(/\\/g, '/');
  if (!normal.startsWith('/') && !/^[A-Za-z]:\//.test(normal)) return normal.replace(/^\.\//, '');
  for (const project of projects) {
    const root = project.replace(/\\/g, '/').replace(/\/+$/, '');
    if (normal.startsWith(`${root}/`)) return normal.slice(root.length + 1);
  }
  return undefined;
}

export function candidateEvidence(record: CandidateRecord): CandidateEvidence {
  const body = typeof record.body === 'string' ? record.body : '';
  // The triggers capture derived: a distilled record's own may be the model's.
  const heuristic = heuristicText(record);
  const paths = [
    ...failedTargets(body).flatMap((target) => relativeTo(target, record.capture.projects) ?? []),
    ...heuristic.paths.filter((path) => !WILDCARD.test(path)),
  ];
  const tools = [...(record.capture.tool !== undefined ? [record.capture.tool] : []), ...heuristic.tools];
  return {
    commands: [...new Set([...failedCommands(body), ...blockCommands(body)])],
    paths: [...new Set(paths.filter((path) => path !== '' && !path.split('/').includes('..')))],
    tools: [...new Set(tools)],
  };
}
