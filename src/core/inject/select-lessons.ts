/**
 * The hook's pipeline, top to bottom: load → match → rank → plan → format. Pure given the
 * manifest head, a block reader and the session state; `lore explain` runs the same function.
 */
import { stackAllows } from './detect-stack.js';
import { formatDecision, headerOverhead } from './format-decision.js';
import { attachTexts, loadCandidates } from './load-candidates.js';
import { matchLessons } from './match-lessons.js';
import { planInjection } from './plan-injection.js';
import type { PlanState } from './plan-injection.js';
import { rankMatches } from './rank-matches.js';
import { LESSON_PROTOCOL } from './session-protocol.js';
import type {
  BlockReader,
  HookDecision,
  HookEvent,
  InjectionPlan,
  InjectSettings,
  ManifestHead,
  ManifestWords,
  Match,
  Skip,
  TextReader,
} from './types.js';

export type SelectInput = {
  event: HookEvent;
  head: ManifestHead;
  readBlock: BlockReader;
  readTexts: TextReader;
  /** Needed for prompts only. */
  words?: ManifestWords;
  /** The event's paths, repo-relative (inside the project only). */
  repoPaths: readonly string[];
  state: PlanState;
  /** The manifest's settings, possibly narrowed by the host adapter. */
  settings: InjectSettings;
};

export type Selection = {
  decision: HookDecision;
  candidates: number;
  blocksRead: number;
  matches: Match[];
};

export function selectLessons(input: SelectInput): Selection {
  const { event, head, settings } = input;
  if (event.event === 'SubagentStart') {
    return {
      decision: formatDecision(event.event, { included: [], denied: [], skipped: [] }, LESSON_PROTOCOL),
      candidates: 0,
      blocksRead: 0,
      matches: [],
    };
  }
  const loaded = loadCandidates(event, head, input.repoPaths, input.readBlock, input.words);
  if (event.event === 'SessionStart') {
    const skipped: Skip[] = [];
    const matches: Match[] = [];
    for (const lesson of loaded.lessons) {
      if (stackAllows(lesson.stack, head.stack))
        matches.push({ lesson, matchedBy: ['startup'], strength: 0 });
      else skipped.push({ id: lesson.id, reason: 'stack-mismatch', matchedBy: ['startup'] });
    }
    const ranked = attachTexts(rankMatches(matches), head.blockSize, input.readTexts);
    const plan = planInjection(ranked, input.state, {
      settings,
      overhead: headerOverhead(event.event),
      allowDeny: false,
      maxLessons: settings.startupLessons,
      maxChars: settings.startupChars,
    });
    plan.skipped.push(...skipped);
    return {
      decision: formatDecision(event.event, plan, LESSON_PROTOCOL),
      candidates: loaded.lessons.length,
      blocksRead: loaded.blocksRead,
      matches: ranked,
    };
  }
  const { matches, skipped } = matchLessons(event, loaded.lessons, {
    repoPaths: input.repoPaths,
    stack: head.stack,
  });
  const ranked = attachTexts(rankMatches(matches), head.blockSize, input.readTexts);
  const plan = planInjection(ranked, input.state, {
    settings,
    overhead: headerOverhead(event.event),
    allowDeny: event.event === 'PreToolUse',
  });
  plan.skipped.push(...skipped);
  return {
    decision: formatDecision(event.event, plan),
    candidates: loaded.lessons.length,
    blocksRead: loaded.blocksRead,
    matches: ranked,
  };
}

/** The text that opens a session's or subagent's context: the #lesson protocol. */
export function preambleFor(event: HookEvent['event']): string | undefined {
  return event === 'SessionStart' || event === 'SubagentStart' ? LESSON_PROTOCOL : undefined;
}

/**
 * Keeps the lessons this process managed to claim (`claim` creates the O_EXCL claim file); the
 * others were taken by a parallel hook in the same context and become `already-shown`.
 */
export function applyClaims(
  plan: InjectionPlan,
  claim: (id: string, priority: number) => boolean,
): InjectionPlan {
  const included = [];
  const skipped = [...plan.skipped];
  for (const item of plan.included) {
    if (claim(item.id, item.priority)) included.push(item);
    else skipped.push({ id: item.id, reason: 'already-shown', matchedBy: item.matchedBy });
  }
  return { ...plan, included, skipped };
}
