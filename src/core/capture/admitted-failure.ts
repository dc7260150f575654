/**
 * A call that reported success, which the agent's own next words say did not work ("It seems
 * `sort` on the router doesn't support the `-h` flag", "The `sed` edit didn't apply"): the output
 * showed the failure only as text the result flag missed, or in a file the call wrote. The detector
 * then counts the call as the failure it was, with the agent's sentence as its error, and its fix
 * is found as for any failure.
 */
import { commandOf, targetPath } from './call-target.js';
import { isShellTool } from './classify-result.js';
import type { ToolCall } from './events.js';

/** Words that say something did not work, or refused how it was asked. */
const ADMITS = [
  /\b(doesn'?t|does not|didn'?t|did not|don'?t|do not|won'?t|can'?t|cannot) (support|accept|recogni[sz]e|understand|take|allow)\b/i,
  /\b(doesn'?t|does not|didn'?t|did not) (work|apply|run|succeed|take effect|do anything|change anything)\b/i,
  /\b(failed|silently failed|had no effect|was ignored|were ignored)\b/i,
  /\b(is|are|was|were) not (supported|recogni[sz]ed|valid)\b/i,
  /\b(unknown|invalid|unrecognized|unsupported|illegal) (option|flag|argument|parameter|switch|sort type)\b/i,
];

/** A stem every pattern of `ADMITS` holds: one cheap test passes most replies. */
const MAY_ADMIT = /n['o]?t |fail|effect|ignored|unknown|invalid|unrecogni|unsupported|illegal/i;

/** Sentences of a reply's opening: the admission must come before anything else the reply does. */
function openingSentences(reply: string): string[] {
  return reply
    .slice(0, 600)
    .split(/(?<=[.!?:])\s+|\n+/)
    .slice(0, 3);
}

/**
 * The names a reply would quote to mean this call: for a shell command its words (program, flags,
 * operands), those of a script it hands another shell (`ssh host '... | sort -rh'`) too; for a
 * file tool its file's name. Single characters name nothing for sure.
 */
function namesOf(call: ToolCall): Set<string> {
  const command = isShellTool(call.tool) ? commandOf(call) : undefined;
  const words =
    command !== undefined ? command.split(/[\s'"`|;&()<>]+/) : [targetPath(call)?.split(/[\\/]/).pop() ?? ''];
  return new Set(words.filter((word) => word.length >= 2));
}

/**
 * The sentence of `reply` that says `call` (which reported success) did not work: it admits a
 * failure and quotes, in backticks, a word of the call (`sort`, `-h`, `config.yml`). Undefined
 * when the opening of the reply says no such thing.
 */
export function admittedFailure(reply: string, call: ToolCall): string | undefined {
  // Most replies admit nothing: one pass over the opening before any sentence is split.
  const opening = reply.slice(0, 600);
  if (!MAY_ADMIT.test(opening) || !ADMITS.some((pattern) => pattern.test(opening))) return undefined;
  const names = namesOf(call);
  if (names.size === 0) return undefined;
  for (const sentence of openingSentences(reply)) {
    if (!ADMITS.some((pattern) => pattern.test(sentence))) continue;
    const quoted = [...sentence.matchAll(/`([^`\n]{1,120})`/g)].map((match) => match[1] ?? '');
    if (quoted.some((name) => names.has(name) || names.has(name.split(/\s+/)[0] ?? '')))
      return sentence.trim();
  }
  return undefined;
}
