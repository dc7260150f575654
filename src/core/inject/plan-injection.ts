/**
 * Stage 5, plan: which ranked lessons go out, in what form, and why each other one does not.
 * Relevance gates (needs-review, low confidence), then guards (a matching guard denies the call,
 * every time; at most `maxLessons` reasons; a denied call gets no advice) and checkpoints (a
 * matching checkpoint denies the call when it was not shown in the session yet and the session
 * state works: `applyClaims` then claims it, so it denies once; shown, it is a lesson like any
 * other), then dedup (already shown in this session: to this agent, or to another one), one
 * lesson per failure (of those that wait for an error), the per-context cap, the per-call count
 * and the character budget. The first lesson always fits: its summary stands in
 * when the full text is too long, and is cut when even that is. A lesson held by an aggregated tool
 * skill goes out as one pointer to the skill instead (guards still deny).
 */
import { skillPointerTexts } from './skill-pointer.js';
import { followsFix } from './guard-fix.js';
import { HARD_MAX_CHARS } from './types.js';
import type {
  Included,
  InjectionPlan,
  InjectSettings,
  ManifestSkill,
  ManifestText,
  Match,
  Skip,
  SkipReason,
} from './types.js';

export type PlanState = {
  /** Lessons already shown in this agent's context. */
  seen: ReadonlySet<string>;
  /** Lessons shown to another agent of the session: claims are session-wide, so held back too. */
  seenElsewhere?: ReadonlySet<string>;
  /** Lessons already shown in this context (the per-context cap, `sessionLessons`, counts these). */
  shownCount: number;
  /** False when the session state could not be read or written: advice is held back. */
  stateAvailable: boolean;
};

export type PlanOptions = {
  settings: InjectSettings;
  /** Characters the formatter adds around the lessons (header); counted in the budget. */
  overhead: number;
  /** Guards deny only on tool calls. */
  allowDeny: boolean;
  /**
   * False where no context can enter (a host's before-call half: Gemini BeforeTool, Cursor
   * preToolUse): only guards act; advice is skipped as `after-call`, unclaimed, for the after half.
   */
  allowAdvice?: boolean;
  /**
   * The call's before half already ran the guards (Gemini AfterTool, Cursor postToolUse): a guard
   * that would deny is not advice now; it is skipped as `call-denied`, its reason went out then.
   */
  guardsRanBefore?: boolean;
  /** The call's shell command, if it has one: a guard lets a command that follows its fix through. */
  command?: string;
  /** Overrides settings.maxLessons / maxChars (SessionStart uses its own small budget). */
  maxLessons?: number;
  maxChars?: number;
  /**
   * Stop reading `ranked` once the plan is settled (the call is denied by `maxLessons` guards, or
   * the per-call or per-context count is reached): with a lazily matched, rank-ordered stream the
   * hook never looks at lessons that could not make it. What was not looked at is not listed.
   */
  stopWhenFull?: boolean;
  /** The texts of a match, fetched only for lessons that get as far as the budget (default: `match.text`). */
  textOf?: (match: Match) => ManifestText | undefined;
  /**
   * Aggregated tool skills (`head.skills`): advice from a lesson held by one goes out as one pointer
   * to the skill (an item whose id is the skill's name, deduped like a lesson), and the skill's
   * other lessons in the call, or in later calls of the session, are skipped as `in-skill`.
   */
  skills?: Readonly<Record<string, ManifestSkill>>;
};

export const SEPARATOR = '\n\n';

export function effectiveMaxChars(requested: number): number {
  return Math.max(200, Math.min(requested, HARD_MAX_CHARS));
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

/** A lesson that waits for its error matched the call's result: it answers the call's failure. */
function answersFailure(matchedBy: readonly string[]): boolean {
  return matchedBy.some((reason) => reason.startsWith('error:'));
}

function isTrigger(reason: string): boolean {
  return reason.startsWith('command:') || reason.startsWith('path:') || reason.startsWith('content:');
}

/** A guard whose own commands match its fix lets a shell call that follows the fix through. */
function followsGuardFix({ lesson, matchedBy }: Match, command: string | undefined): boolean {
  return (
    lesson.guard &&
    lesson.fixes !== undefined &&
    command !== undefined &&
    matchedBy.some((reason) => reason.startsWith('command:')) &&
    followsFix(command, lesson.commands, lesson.fixes)
  );
}

/**
 * Why a lesson that may go out does not, by the caps: one failure gets one lesson (those that wait
 * for an error and matched the call's result answer the same failure, often the same mistake
 * captured more than once with other fixes: the best goes out, the others stay unshown for the
 * next attempt, if it fails again), then the per-context cap and the per-call count.
 */
function capReason(
  matchedBy: readonly string[],
  included: readonly Included[],
  shownCount: number,
  sessionLessons: number,
  maxLessons: number,
): SkipReason | undefined {
  if (answersFailure(matchedBy) && included.some((item) => answersFailure(item.matchedBy)))
    return 'same-failure';
  if (shownCount + included.length >= sessionLessons) return 'over-session';
  return included.length >= maxLessons ? 'over-count' : undefined;
}

/** Why the session state holds a lesson back (it cannot be recorded, or was shown), if it does. */
function heldBack(state: PlanState, id: string): SkipReason | undefined {
  if (!state.stateAvailable) return 'state-unavailable';
  if (state.seen.has(id)) return 'already-shown';
  return state.seenElsewhere?.has(id) === true ? 'shown-to-other-agent' : undefined;
}

export function planInjection(
  ranked: Iterable<Match>,
  state: PlanState,
  options: PlanOptions,
): InjectionPlan {
  const { settings } = options;
  const maxLessons = options.maxLessons ?? settings.maxLessons;
  const budget = effectiveMaxChars(options.maxChars ?? settings.maxChars) - options.overhead;
  const included: Included[] = [];
  const denied: Included[] = [];
  const skipped: Skip[] = [];
  let used = 0;
  let denyUsed = 0;
  const textOf = options.textOf ?? ((match: Match) => match.text);
  const adviceFull = () =>
    included.length >= maxLessons || state.shownCount + included.length >= settings.sessionLessons;

  for (const match of ranked) {
    const { lesson, matchedBy } = match;
    const trigger = options.allowDeny && matchedBy.some(isTrigger);
    const followed = followsGuardFix(match, options.command) && settings.guards;
    const guardDenies = lesson.guard && settings.guards && trigger && !followed;
    // A checkpoint denies the session's first matching call only: never twice, never unrecorded.
    const checkpoint = lesson.checkpoint === true && trigger;
    const held = heldBack(state, lesson.id);
    const denies = guardDenies || (checkpoint && held === undefined);
    // A rank-ordered stream brings the guards and checkpoints that can deny first: past them, a
    // denied call or a full plan is settled (a spent checkpoint among them does not settle it).
    if (options.stopWhenFull === true) {
      if (denied.length >= maxLessons) break;
      if (!denies && !checkpoint && options.allowAdvice === false) break;
      if (!denies && !checkpoint && (denied.length > 0 || adviceFull())) break;
    }
    const skip = (reason: Skip['reason'], skill?: string) =>
      skipped.push({ id: lesson.id, reason, matchedBy, ...(skill === undefined ? {} : { skill }) });
    if (lesson.needsReview) {
      skip('needs-review');
      continue;
    }
    if (lesson.confidence < settings.minConfidence) {
      skip('low-confidence');
      continue;
    }
    if (lesson.priority < (settings.minPriority ?? 1)) {
      skip('low-priority');
      continue;
    }
    // the call follows the guard's fix, or the half before it ran the guards already
    const ranGuard =
      options.guardsRanBefore === true && lesson.guard && settings.guards && matchedBy.some(isTrigger);
    if (followed || ranGuard) {
      skip(followed ? 'follows-fix' : 'call-denied');
      continue;
    }
    if (denies) {
      if (denied.length >= maxLessons) {
        skip('over-count');
        continue;
      }
      const texts = textOf(match);
      const reason = texts?.reason ?? texts?.summary ?? `[lore ${lesson.id}]`;
      const room =
        effectiveMaxChars(settings.maxChars) - denyUsed - (denied.length > 0 ? SEPARATOR.length : 0);
      if (denied.length === 0 || reason.length <= room) {
        const text = cut(reason, Math.max(room, 80));
        denied.push({
          id: lesson.id,
          matchedBy,
          text,
          form: text === reason ? 'full' : 'truncated',
          priority: lesson.priority,
          ...(guardDenies ? {} : { kind: 'checkpoint' as const }),
        });
        denyUsed += text.length + (denied.length > 1 ? SEPARATOR.length : 0);
      } else skip('over-budget');
      continue;
    }
    // a spent checkpoint in a call's before half says why it did not deny
    if (options.allowAdvice === false) {
      skip(checkpoint && held !== undefined ? held : 'after-call');
      continue;
    }
    if (held !== undefined) {
      skip(held);
      continue;
    }
    const skillName = lesson.skill !== undefined && options.skills?.[lesson.skill] ? lesson.skill : undefined;
    const skill = skillName === undefined ? undefined : options.skills?.[skillName];
    if (skillName !== undefined) {
      const pointer = included.find((item) => item.skill?.name === skillName);
      if (pointer?.skill !== undefined) {
        pointer.skill.lessons.push(lesson.id);
        skip('in-skill', skillName);
        continue;
      }
      if (state.seen.has(skillName) || state.seenElsewhere?.has(skillName) === true) {
        skip('in-skill', skillName);
        continue;
      }
    }
    const capped = capReason(matchedBy, included, state.shownCount, settings.sessionLessons, maxLessons);
    if (capped !== undefined) {
      skip(capped);
      continue;
    }
    const lessonTexts = textOf(match);
    const texts =
      skillName === undefined || skill === undefined
        ? lessonTexts
        : skillPointerTexts(skillName, skill, lessonTexts?.summary);
    const full = texts?.text ?? `[lore ${lesson.id}]`;
    const summary = texts?.summary ?? `[lore ${lesson.id}]`;
    const room = budget - used - (included.length > 0 ? SEPARATOR.length : 0);
    let text: string | undefined;
    let form: Included['form'] = 'full';
    if (full.length <= room) text = full;
    else if (summary.length <= room) {
      text = summary;
      form = 'summary';
    } else if (included.length === 0) {
      text = cut(summary, Math.max(room, 40));
      form = 'truncated';
    }
    if (text === undefined) {
      skip('over-budget');
      continue;
    }
    used += text.length + (included.length > 0 ? SEPARATOR.length : 0);
    included.push({
      id: skillName ?? lesson.id,
      matchedBy,
      text,
      form,
      priority: lesson.priority,
      ...(skillName === undefined || skill === undefined
        ? {}
        : { skill: { name: skillName, path: skill.path, lessons: [lesson.id] } }),
    });
  }
  // A denied call does not run: advice about it would never reach the agent, so none is sent.
  if (denied.length > 0 && included.length > 0) {
    for (const item of included.splice(0)) {
      const covered = item.skill?.lessons ?? [item.id];
      if (item.skill !== undefined) {
        // the pointer's lessons are reported once, as denied with the call, not also as in-skill
        const name = item.skill.name;
        const kept = skipped.filter((s) => !(s.reason === 'in-skill' && s.skill === name));
        skipped.splice(0, skipped.length, ...kept);
      }
      for (const id of covered) skipped.push({ id, reason: 'call-denied', matchedBy: item.matchedBy });
    }
  }
  return { included, denied, skipped };
}
