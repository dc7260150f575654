/**
 * What a replay proposes, per lesson, from its figures:
 * - `narrow`: at least `NARROW_MIN_FIRES` fires and precision under `NARROW_MAX_PRECISION`: a
 *   trigger built from the command keys (or file globs) its hits share and its noise lacks, and,
 *   for a lesson that fires before calls, the error words its hits printed and its noise did not
 *   (it would then wait for them);
 * - `retire`: it never fired on any replayed call;
 * - `guard`: an advisory lesson, precise, whose mistake still came back at least twice after the
 *   advice reached the model: a guard denies the repeats;
 * - `checkpoint`: an advisory lesson that would have prevented clearly more as a checkpoint (the
 *   first matching call of each session denied) than as advice.
 * A lesson scoped by tool alone fires on every call of its tools: the narrow proposal says so. A
 * lesson that waits for its error can deny nothing: its guard or checkpoint proposal drops the
 * errors too. Pure.
 */
import { commandTrigger } from '../capture/shell-command.js';
import { pathGlob } from '../capture/draft-candidate.js';
import { errorPattern } from '../capture/error-pattern.js';
import { cachedRegex } from '../match/cached-regex.js';
import type { ReplayCall } from '../outcome/call-outcome.js';
import type { LessonEvidence } from './judge-replay.js';
import type { LessonReplay, ReplaySuggestion, SuggestionKind } from './replay-report.js';

export const NARROW_MIN_FIRES = 5;
export const NARROW_MAX_PRECISION = 0.34;
/** How many more prevented repeats a checkpoint must show to be proposed. */
export const CHECKPOINT_MARGIN = 2;
export const GUARD_MIN_REPEATS = 2;
export const GUARD_MIN_PRECISION = 0.5;

const ORDER: readonly SuggestionKind[] = ['narrow', 'guard', 'checkpoint', 'retire'];

/** What a call's key says as a trigger: a command regex for shell calls, a glob for file calls. */
function triggerKeys(call: ReplayCall): { commands: string[]; paths: string[] } {
  if (call.family === 'shell') return { commands: call.keys.filter((key) => key !== '?'), paths: [] };
  if (call.family === 'edit' || call.family === 'read') {
    const glob =
      call.keys[0] === undefined || call.keys[0] === '?' ? undefined : pathGlob(call.keys[0], call.project);
    return { commands: [], paths: glob === undefined ? [] : [glob] };
  }
  return { commands: [], paths: [] };
}

/** The keys most of the hits share and none of the noise has, most shared first (at most 3). */
function distinctive(hits: readonly string[][], noise: readonly string[][]): string[] {
  const inNoise = new Set(noise.flat());
  const counts = new Map<string, number>();
  for (const keys of hits)
    for (const key of new Set(keys)) if (!inNoise.has(key)) counts.set(key, (counts.get(key) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, 3)
    .map(([key]) => key);
}

function percent(value: number | null): string {
  return value === null ? '-' : `${Math.round(value * 100)}%`;
}

/**
 * The error words most of the hits printed and none of the noise did (the first hit's pattern that
 * matches the most hits), or undefined.
 */
export function sharedError(evidence: LessonEvidence): string | undefined {
  const textOf = (call: ReplayCall) => call.output ?? call.gist ?? '';
  let best: { source: string; hits: number } | undefined;
  for (const hit of evidence.hits) {
    const source = hit.gist === undefined ? undefined : errorPattern(hit.gist, textOf(hit));
    const regex = source === undefined ? null : cachedRegex(source, 'i');
    if (source === undefined || regex === null) continue;
    if (evidence.noise.some((call) => regex.test(textOf(call)))) continue;
    const hits = evidence.hits.filter((call) => regex.test(textOf(call))).length;
    if (best === undefined || hits > best.hits) best = { source, hits };
  }
  return best !== undefined && best.hits * 2 >= evidence.hits.length ? best.source : undefined;
}

export function narrowerTrigger(
  evidence: LessonEvidence,
  waits = false,
): ReplaySuggestion['trigger'] | undefined {
  const hits = evidence.hits.map(triggerKeys);
  const noise = evidence.noise.map(triggerKeys);
  const commands = distinctive(
    hits.map((h) => h.commands),
    noise.map((n) => n.commands),
  ).map((key) => commandTrigger(key, undefined));
  const paths = distinctive(
    hits.map((h) => h.paths),
    noise.map((n) => n.paths),
  );
  const error = waits ? undefined : sharedError(evidence);
  if (commands.length === 0 && paths.length === 0 && error === undefined) return undefined;
  return {
    ...(commands.length > 0 ? { commands } : {}),
    ...(paths.length > 0 ? { paths } : {}),
    ...(error === undefined ? {} : { errors: [error] }),
  };
}

export function suggestReplay(
  lessons: readonly LessonReplay[],
  evidence: ReadonlyMap<string, LessonEvidence>,
  calls: number,
): ReplaySuggestion[] {
  const out: ReplaySuggestion[] = [];
  for (const lesson of lessons) {
    const found = evidence.get(lesson.id) ?? { hits: [], noise: [], repeatsAfterAdvice: 0 };
    const advisory = lesson.type !== 'guard' && lesson.type !== 'checkpoint';
    if (lesson.fires >= NARROW_MIN_FIRES && (lesson.precision ?? 0) < NARROW_MAX_PRECISION) {
      const trigger = narrowerTrigger(found, lesson.waits === true);
      const scope = lesson.toolOnly
        ? ' It is scoped by tool alone, so it matches every call of its tools.'
        : '';
      const early = (lesson.byForm['before-call']?.fires ?? 0) * 2 > lesson.fires;
      const opening = early
        ? ' Most of its fires are context at session start or with a prompt, which a trigger does not narrow: lower its priority, or keep it in the user tier (sessions open with the top project lessons).'
        : '';
      const proposal =
        trigger === undefined
          ? lesson.hits === 0
            ? ' None of its fires was at its mistake: give it a command or path trigger, or archive it.'
            : ' No key tells its hits from its noise: narrow it by hand.'
          : ` Narrow it to ${[
              ...(trigger.commands ?? []).map((c) => `command /${c}/`),
              ...(trigger.paths ?? []).map((p) => `path ${p}`),
              ...(trigger.errors ?? []).map(
                (e) => `waiting for its error /${e}/ (lore update ${lesson.id} --error '${e}')`,
              ),
            ].join(', ')}.`;
      out.push({
        lesson: lesson.id,
        kind: 'narrow',
        text: `fired ${lesson.fires} time(s), ${lesson.hits} at its mistake (precision ${percent(lesson.precision)}), ${lesson.noise} noise.${scope}${proposal}${opening}`,
        ...(trigger === undefined ? {} : { trigger }),
      });
    }
    if (lesson.fires === 0 && calls > 0) {
      out.push({
        lesson: lesson.id,
        kind: 'retire',
        text: `never fired in ${calls} replayed call(s)${lesson.misses > 0 ? ` though its trigger matched ${lesson.misses} failure(s) of its mistake (look at its confidence, needsReview and priority, or the lessons that take the budget first)` : ''}: archive it (lore archive ${lesson.id}) or widen its trigger.`,
      });
    }
    if (!advisory) continue;
    // a guard or checkpoint acts before the call: one that waited for its error would never deny
    const unsetErrors = lesson.waits === true ? ' --unset errors' : '';
    if (found.repeatsAfterAdvice >= GUARD_MIN_REPEATS && (lesson.precision ?? 0) >= GUARD_MIN_PRECISION) {
      out.push({
        lesson: lesson.id,
        kind: 'guard',
        text: `its mistake came back ${found.repeatsAfterAdvice} time(s) after the advice reached the model (precision ${percent(lesson.precision)}): as a guard it would deny them (lore update ${lesson.id} --type guard${unsetErrors}).`,
      });
      continue;
    }
    const asCheckpoint = lesson.asCheckpoint;
    if (asCheckpoint !== undefined && asCheckpoint.prevented - lesson.prevented >= CHECKPOINT_MARGIN) {
      out.push({
        lesson: lesson.id,
        kind: 'checkpoint',
        text: `as a checkpoint (its first matching call in a session denied, ${asCheckpoint.denials} denial(s)) it would have prevented ${asCheckpoint.prevented} repeat(s), against ${lesson.prevented} as advice: make it a checkpoint (lore update ${lesson.id} --type checkpoint${unsetErrors}).`,
      });
    }
  }
  return out.sort((a, b) => ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind) || (a.lesson < b.lesson ? -1 : 1));
}
