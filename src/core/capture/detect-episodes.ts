/**
 * Tier 2 (and Tier 1) detection over a sliding window of events, as a streaming state machine so
 * a scan never holds more than the window: push events in order, collect episodes, flush at the
 * end. Heuristics:
 *
 * - error → fix: a tool call fails; a later call of the same tool on the same target (the same
 *   executable for shell commands, the same file for file tools) with a different input succeeds;
 *   or the identical call succeeds after a different successful call in between (Read before
 *   Edit, install before test). An identical retry with nothing in between is a transient
 *   failure, not a mistake.
 * - user correction: the user's own words ("no", "wrong", "that's not right", "you broke") right
 *   after the agent acted; never tool output, subagent prompts or injected text.
 * - retry loop: three or more failed attempts at the same target.
 * - hang or timeout: a timeout or an interactive prompt that stalls the call.
 * - self-diagnosis: the agent explains a failure ("the issue is", "root cause").
 * - #lesson blocks (Tier 1) in assistant text.
 *
 * Rejections and interruptions are the user's decisions, never the agent's mistakes.
 *
 * The detector's state is one plain object (`DetectorState`) handed to each stage: `pushEvent`
 * routes an event to the stage for its kind (`onToolResult`, `onAssistantText`, `onUserText`),
 * which applies the pure verdicts of `pending-failure.ts` and builds episodes with the pure
 * builders below; `expireOld` closes what the window has passed.
 */
import {
  LAUNCH_WINDOW,
  backgroundProgram,
  checkedNames,
  diedText,
  foundNothing,
  launchKeys,
  looksFor,
} from './background-launch.js';
import type { Launch } from './background-launch.js';
import { commandOf, distinctInputs, sameInput, targetOf } from './call-target.js';
import { isShellTool } from './classify-result.js';
import { commandKeys } from './shell-command.js';
import {
  DOWNLOAD_WINDOW,
  downloadedFile,
  errorPageLine,
  sameFile,
  savedErrorText,
  viewedFile,
} from './saved-download.js';
import type { Download } from './saved-download.js';
import type { CallTarget } from './call-target.js';
import type { AssistantText, ToolCall, ToolResult, TranscriptEvent, UserText } from './events.js';
import type { Attempt, Episode, EpisodeKind, EpisodeSignals, EvidenceRef } from './episode.js';
import { noSignals } from './episode.js';
import { parseLessonBlocks } from './lesson-block.js';
import {
  judgeFailure,
  judgeSuccess,
  isProbe,
  lastAttempt,
  namedSubstitutes,
  installsSomething,
  openFailure,
  shellSubstitutes,
  namedByFailure,
  nextProgramRun,
  onlyMoreOutput,
  operandRun,
  substituteRun,
  unranRetry,
} from './pending-failure.js';
import type { PendingFailure } from './pending-failure.js';
import { cdAloneFailure } from './fresh-shell.js';
import { maskedFailure } from './masked-failure.js';
import { changedByUser, ownsUp, rerunByUser } from './acknowledged-correction.js';
import { admittedFailure } from './admitted-failure.js';
import { askedNarrower, isSearch, printedNothing } from './empty-lookup.js';

export type DetectorOptions = {
  /** Events a failure stays open for a fix. */
  window: number;
};

export const DEFAULT_DETECTOR_OPTIONS: DetectorOptions = { window: 40 };

const CORRECTION = [
  /^(no|nope|nah)\b(?![- ](problem|worries|need|thanks|rush|idea|longer|more|other|one|matter))[,.!:;\s-]/i,
  /^(no|nope)\s*[.!]*$/i,
  /^(wrong|incorrect|stop|wait|undo|revert)\b/i,
  /^(that'?s|that is|this is|it'?s|it is) (not|wrong|incorrect|broken)\b/i,
  /\b(that'?s|this is|that is) (not (right|correct|what i (asked|wanted|meant))|wrong)\b/i,
  /\bnot what i (asked|wanted|meant|said)\b/i,
  /\byou (didn'?t|did not|forgot|missed|broke|shouldn'?t have|should not have|were supposed to|ignored|deleted|removed|overwrote)\b/i,
  /^(don'?t|do not|never|please don'?t|please do not|stop)\b/i,
  /^why (did|are|would) you\b/i,
  /\b(still|it'?s still|is still) (broken|failing|not working|wrong)\b/i,
  /\b(didn'?t|doesn'?t|does not|did not) work\b/i,
  /^actually,? (no|don'?t|use|it'?s|you)\b/i,
  /^(i said|i told you|as i said)\b/i,
  // A report that the agent's change took something away ("the battery indicator is gone").
  /\b(is|are|has|have) (now )?(gone|disappeared|vanished)\b/i,
  /\bplease (restore|bring back|put back)\b|\b(bring|put) (it|them) back\b/i,
  // A report that what the agent did has no effect, or hit the wrong thing.
  /^(it|this|that|the [\w-]+)('s| is| are) (still )?not (working|showing|loading|starting|running)\b/i,
  /\bnothing (happened|changed)\b|\bi (still )?(don'?t|do not|can'?t|cannot) see (it|any|the)\b/i,
  /\b(that'?s|that is|this is|it'?s|you (used|opened|edited|changed)) the wrong\b/i,
  // What the user meant instead: "I meant the other one", "not the app list but the launcher",
  // or only where ("in the M-Gemini repo").
  /^i (meant|mean)\b/i,
  /^not (the|a|an|my|this|that|these|those) [^.?!\n]{1,80}\bbut (the|a|an|my|this|that|rather)\b/i,
  // Doubt of what the agent just claimed ("I'm not sure the txt files are chat transcripts").
  /^i'?m not sure (the|that|this|these|those|it|they|you)\b/i,
  /^(in|inside|under) (the|my|our) [\w.@/-]+ (repo|repository|folder|directory|dir|project)[.!]?$/i,
];

/**
 * A symptom of what the agent made: it does not show, open or start ("why does the exported doc
 * not show any text", "the shortcut doesn't open anything"). A correction about the newest thing
 * the agent did, even when a refused call came between.
 */
const SYMPTOM =
  /\b(doesn'?t|does not|didn'?t|did not|won'?t|will not|isn'?t|is not|aren'?t|are not) (show|display|open|load|start|launch|appear|render|save|apply)(ing)?\b|^why (does|did|do|is|are|won'?t|doesn'?t|isn'?t) (it|this|that|the|my) [^?\n]{0,80}\bnot (show|display|open|load|start|launch|appear|render|work)/i;

/** A condition the symptom sits in ("show a spinner while it is not loading"): a request, not a report. */
const CONDITION = /\b(while|when|whenever|if|until|unless|whether|in case)\b[^.,;!?]*$/i;

/** Whether the user's words report a symptom of what the agent made (`SYMPTOM`), on their first line. */
export function reportsSymptom(text: string): boolean {
  return text.length <= 1200 && symptomIn(text.trim().split(/\n/)[0] ?? '');
}

/** Whether a first line reports a symptom; most lines hold no negation and are passed at once. */
function symptomIn(first: string): boolean {
  if (!/n[o']?t\b/i.test(first)) return false;
  const match = SYMPTOM.exec(first);
  return match !== null && !CONDITION.test(first.slice(0, match.index));
}

const CAUSAL =
  /\b(the (issue|problem|error|bug|cause|reason) (is|was|here is|seems to be)|root cause|this (happens|happened|fails|failed) because|(failed|fails|failing) because|the fix is|that'?s why|i see the (issue|problem)|the error (indicates|means|shows|says))\b/i;

const DATA_LOSS =
  /\b(rm -rf|git reset --hard|git clean -f|git checkout -- |git push (-f|--force)|drop table|truncate table|overwr(o|i)te|data loss|lost (my|the|all)|deleted (my|the|all))\b/i;

export function isCorrection(text: string): boolean {
  const first = text.trim().split(/\n/)[0] ?? '';
  if (first.length === 0 || text.length > 1200) return false;
  return CORRECTION.some((pattern) => pattern.test(first)) || symptomIn(first);
}

export function causalSentence(text: string): string | undefined {
  const match = CAUSAL.exec(text);
  if (!match) return undefined;
  const start = Math.max(text.lastIndexOf('.', match.index) + 1, text.lastIndexOf('\n', match.index) + 1, 0);
  const endDot = text.slice(match.index).search(/[.\n]/);
  const end = endDot < 0 ? text.length : match.index + endDot + 1;
  return text.slice(start, end).trim().slice(0, 300);
}

export type EpisodeDetector = {
  push(event: TranscriptEvent): Episode[];
  flush(): Episode[];
  /** The newest events, for the next incremental scan of the same file to continue from. */
  recent(): TranscriptEvent[];
  /** Whether a failure is still waiting for its fix. */
  hasPending(): boolean;
};

export function createEpisodeDetector(options: DetectorOptions = DEFAULT_DETECTOR_OPTIONS): EpisodeDetector {
  const state = createDetectorState();
  return {
    push: (event) => pushEvent(state, event, options.window),
    flush: () => flushPending(state),
    recent: () => [...state.recent],
    hasPending: () => state.pending.length > 0,
  };
}

export type DetectorState = {
  /** Events pushed so far: the clock the window and the "right after" rules count on. */
  index: number;
  /** Failures waiting for their fix, oldest first. */
  pending: PendingFailure[];
  /** Calls waiting for their result, by call id (the oldest dropped past 256). */
  calls: Map<string, { call: ToolCall; index: number }>;
  /** The newest `window` events. */
  recent: TranscriptEvent[];
  /** The newest call with its result, until a user correction or a refusal uses it up. */
  lastCall: Attempt | undefined;
  /**
   * The newest calls with the event index each came at, newest last (those within
   * `CORRECTED_ACTION_REACH` events): a user's correction after a look around is about what the
   * agent did before it. Which of them only looked is worked out when a correction comes.
   */
  recentCalls: (Attempt & { index: number })[];
  lastAssistantText: AssistantText | undefined;
  /** Pending shell failures (of build/test tools) after which the agent edited files. */
  edited: Set<PendingFailure>;
  /** Whether the harness has already refused a path outside the workspace in this stream. */
  toldWorkspace: boolean;
  /** Programs started in the background that no check has looked for yet, newest last. */
  launches: Launch[];
  /** Downloads whose file the agent has not looked into yet, newest last. */
  downloads: Download[];
  /** The event index of the newest install that worked (`winget install x`), if any. */
  installedAt?: number;
  /**
   * The event index the call being answered was made at: a call made before a failure's result
   * came (one of a batch of parallel calls) was chosen without knowing of the failure, so it fixes
   * nothing and enables nothing.
   */
  issued?: number;
  /** Searches that printed nothing, at the event index each came at, newest last. */
  emptySearches: (Attempt & { index: number })[];
  /**
   * The newest user words no pattern read as a correction, at event `index`, with the call a
   * correction would be about and the reply before them: until the agent's next reply.
   */
  heard?: { event: UserText; index: number; call: Attempt | undefined; before: AssistantText | undefined };
};

/** The newest calls a user's changed command line may be about. */
const RECENT_CALLS_DICTATED = 3;

/** Events from the user's words to a reply that can own up to them (a tool call and result between). */
const OWN_UP_REACH = 3;

/** A program asked for within this many events of an install is one the agent expects there. */
const JUST_INSTALLED = 12;

/**
 * The harness refusing a path outside the workspace (Gemini CLI's file tools). The first refusal is
 * the harness's rule, not the agent's mistake; trying again after being told is one.
 */
const OUTSIDE_WORKSPACE =
  /must be within one of the workspace directories|resolves outside the allowed workspace directories|outside (of )?the (allowed )?workspace|is not within any of the registered workspace directories/i;

export function createDetectorState(): DetectorState {
  return {
    index: 0,
    pending: [],
    calls: new Map(),
    recent: [],
    lastCall: undefined,
    recentCalls: [],
    lastAssistantText: undefined,
    edited: new Set(),
    toldWorkspace: false,
    launches: [],
    downloads: [],
    emptySearches: [],
    // Set now, though empty, so the state keeps one shape: fields added later would make every
    // stage's reads of it polymorphic.
    issued: undefined,
    heard: undefined,
  };
}

/** One event in, the episodes it completes out (then those the window has passed). */
export function pushEvent(state: DetectorState, event: TranscriptEvent, window: number): Episode[] {
  state.index += 1;
  state.recent.push(event);
  if (state.recent.length > window) state.recent.shift();
  const out = routeEvent(state, event);
  out.push(...expireOld(state, window));
  return out;
}

function routeEvent(state: DetectorState, event: TranscriptEvent): Episode[] {
  switch (event.kind) {
    case 'tool-call':
      state.calls.set(event.callId, { call: event, index: state.index });
      if (state.calls.size > 256) state.calls.delete(state.calls.keys().next().value as string);
      return [];
    case 'tool-result':
      return onToolResult(state, event);
    case 'assistant-text':
      return onAssistantText(state, event);
    case 'user-text':
      return onUserText(state, event);
    case 'rejection':
    case 'interruption':
      if (event.callId !== undefined) state.calls.delete(event.callId);
      state.lastCall = undefined;
      return [];
    case 'compaction':
      // What came before the summary is gone from the agent's context: settle it now.
      return flushPending(state);
  }
}

/** Every pending failure settled as it stands (end of the stream, or a compaction). */
export function flushPending(state: DetectorState): Episode[] {
  const out = state.pending.flatMap(expiredEpisodes);
  state.pending = [];
  return out;
}

/** Pending failures whose last attempt is more than `window` events old, settled. */
export function expireOld(state: DetectorState, window: number): Episode[] {
  const out: Episode[] = [];
  state.pending = state.pending.filter((p) => {
    if (state.index - p.lastIndex <= window) return true;
    out.push(...expiredEpisodes(p));
    return false;
  });
  return out;
}

export function onToolResult(state: DetectorState, read: ToolResult): Episode[] {
  const waiting = state.calls.get(read.callId);
  if (!waiting) return [];
  state.calls.delete(read.callId);
  const { call } = waiting;
  state.issued = waiting.index;
  // A failure the result hid (an exit code a pipe lost, `cmd /c` that ran nothing) is one.
  const result = maskedFailure(call, read) ?? read;
  state.lastCall = { call, result };
  state.recentCalls.push({ call, result, index: state.index });
  if (state.recentCalls.length > CORRECTED_ACTION_REACH) state.recentCalls.shift();
  const launched = result.ok ? backgroundProgram(call) : undefined;
  if (launched !== undefined)
    return onLaunch(state, { program: launched, attempt: { call, result }, index: state.index });
  if (state.launches.length > 0) {
    const checked = onLaunchCheck(state, call, result);
    if (checked !== undefined) return checked;
  }
  const saved = result.ok ? downloadedFile(call) : undefined;
  if (saved !== undefined)
    return onDownload(state, { file: saved, attempt: { call, result }, index: state.index });
  if (result.ok && state.downloads.length > 0) {
    const looked = onDownloadLook(state, call, result);
    if (looked !== undefined) return looked;
  }
  if (result.ok && installsSomething(call)) state.installedAt = state.index;
  if (result.ok && isSearch(call)) {
    const found = onSearch(state, call, result);
    if (found !== undefined) return found;
  }
  // A `cd` on its own in a shell that does not keep it: a failure that waits for the call that
  // reaches the folder another way.
  const cd = cdAloneFailure(call, result);
  if (cd !== undefined) {
    state.pending.push(openFailure(call, cd, targetOf(call), state.index, true));
    return [];
  }
  // A success with no failure waiting for its fix changes nothing else (the common case).
  if (result.ok && state.pending.length === 0) return [];
  const target = targetOf(call);
  if (!result.ok && OUTSIDE_WORKSPACE.test(result.text.slice(0, 600)) && !state.toldWorkspace) {
    state.toldWorkspace = true;
    return [];
  }
  if (!result.ok) return onFailure(state, call, result, target);
  if (target.family === 'edit') for (const p of state.pending) if (p.family === 'shell') state.edited.add(p);
  return onSuccess(state, call, result, target);
}

function onFailure(state: DetectorState, call: ToolCall, result: ToolResult, target: CallTarget): Episode[] {
  const justInstalled = state.installedAt !== undefined && state.index - state.installedAt <= JUST_INSTALLED;
  const verdict = judgeFailure(state.pending, call, result, target, justInstalled);
  switch (verdict.kind) {
    case 'noise': {
      const { open } = verdict;
      // A changed retry the harness never ran still says what the agent corrected.
      if (open !== undefined && !open.probe && unranRetry(open, call, result)) {
        state.pending = state.pending.filter((p) => p !== open);
        return [episodeFromPending(open, 'error-fix', call, result)];
      }
      // A lookup retried under its PowerShell alias still names the cmdlet that would work.
      if (open !== undefined)
        for (const cmdlet of shellSubstitutes(call, result))
          if (!open.substitutes.includes(cmdlet)) open.substitutes.push(cmdlet);
      return [];
    }
    case 'first':
      state.pending.push(openFailure(call, result, target, state.index));
      return [];
    case 'probe':
      state.pending.push(openFailure(call, result, target, state.index, true));
      return [];
    case 'retry':
      verdict.open.attempts.push({ call, result });
      verdict.open.lastIndex = state.index;
      verdict.open.enabler = undefined;
      return [];
    case 'cured': {
      // The fix: what the agent did in between, else the changed call that got past the error;
      // for a program the shell did not have, the call that ran it another way
      // (`& "C:\...\gpg.exe"` after `gpg` was not found), unless what came between installed it.
      const { open } = verdict;
      const ranOtherwise =
        open.missingProgram &&
        open.enabler !== undefined &&
        !installsSomething(open.enabler) &&
        !sameInput(lastAttempt(open).call, call);
      const episode =
        open.enabler !== undefined && !ranOtherwise
          ? episodeFromPending(open, 'error-fix', open.enabler)
          : episodeFromPending(open, 'error-fix', call, result);
      state.pending = state.pending.filter((p) => p !== verdict.open);
      state.pending.push(openFailure(call, result, target, state.index));
      return [episode];
    }
  }
}

/** Events a search that printed nothing waits for the narrower search that finds it. */
const SEARCH_WINDOW = 8;

/**
 * A search that worked: one that printed nothing is remembered; one that printed something and
 * asks an empty one again narrower (`askedNarrower`) shows the empty one was asked wrong, an
 * error-fix with this search as the fix. Undefined when it settles nothing.
 */
function onSearch(state: DetectorState, call: ToolCall, result: ToolResult): Episode[] | undefined {
  const recent = state.emptySearches.filter((s) => state.index - s.index <= SEARCH_WINDOW);
  if (printedNothing(result)) {
    state.emptySearches = [...recent, { call, result, index: state.index }].slice(-4);
    return undefined;
  }
  const empty = recent.find((s) => askedNarrower(s.call, call));
  state.emptySearches = recent.filter((s) => s !== empty);
  if (empty === undefined) return undefined;
  const nothing: ToolResult = {
    ...empty.result,
    ok: false,
    failure: 'error-output',
    text: 'printed nothing',
  };
  const open = openFailure(empty.call, nothing, targetOf(empty.call), empty.index);
  return [episodeFromPending(open, 'error-fix', call, result)];
}

/**
 * A program started in the background: remembered until a check looks for it. A launch that died
 * before waits for that check too, rather than counting as its own fix.
 */
function onLaunch(state: DetectorState, launch: Launch): Episode[] {
  state.launches = [...state.launches.filter((l) => state.index - l.index <= LAUNCH_WINDOW), launch].slice(
    -8,
  );
  const keys = launchKeys(launch);
  const held = new Set(state.pending.filter((p) => p.died && p.keys.some((key) => keys.includes(key))));
  const { call, result } = launch.attempt;
  return onSuccess(state, call, result, targetOf(call), held);
}

/**
 * A process check (`ps | grep x`, `pgrep x`) after a background launch of `x`: finding nothing
 * makes the launch a failure; finding it settles a launch that died before. Undefined when the call
 * checks no launched program.
 */
function onLaunchCheck(state: DetectorState, call: ToolCall, result: ToolResult): Episode[] | undefined {
  const names = checkedNames(call);
  if (names.length === 0) return undefined;
  const recent = state.launches.filter((l) => state.index - l.index <= LAUNCH_WINDOW);
  const launch = recent.reverse().find((l) => looksFor(names, l));
  if (launch === undefined) return undefined;
  state.launches = state.launches.filter((l) => l !== launch);
  const { call: started, result: startedResult } = launch.attempt;
  if (foundNothing(result)) {
    const { out, open } = failedAfterAll(state, launch.attempt, diedText(launch));
    if (open !== undefined) open.died = true;
    return out;
  }
  if (!result.ok) return undefined;
  const keys = launchKeys(launch);
  const revived = state.pending.find((p) => p.died && p.keys.some((key) => keys.includes(key)));
  if (revived === undefined) return undefined;
  state.pending = state.pending.filter((p) => p !== revived);
  return [episodeFromPending(revived, 'error-fix', started, startedResult)];
}

/**
 * A download: remembered until the agent looks into its file. It is the fix of an earlier
 * download of the same file that turned out to be an error page, whatever program fetched it.
 */
function onDownload(state: DetectorState, download: Download): Episode[] {
  state.downloads = [
    ...state.downloads.filter((d) => state.index - d.index <= DOWNLOAD_WINDOW && d.file !== download.file),
    download,
  ].slice(-8);
  const { call, result } = download.attempt;
  const redone = state.pending.find((p) => p.savedFile !== undefined && sameFile(download.file, p.savedFile));
  if (redone === undefined) return onSuccess(state, call, result, targetOf(call));
  state.pending = state.pending.filter((p) => p !== redone);
  return [
    episodeFromPending(redone, 'error-fix', call, result),
    ...onSuccess(state, call, result, targetOf(call)),
  ];
}

/**
 * A look into a file a download wrote (Read, `cat`, `file`): an error page in it makes the
 * download a failure. Undefined when the call looks at no downloaded file, or finds it fine.
 */
function onDownloadLook(state: DetectorState, call: ToolCall, result: ToolResult): Episode[] | undefined {
  const viewed = viewedFile(call);
  if (viewed === undefined) return undefined;
  const download = state.downloads.find(
    (d) => state.index - d.index <= DOWNLOAD_WINDOW && sameFile(viewed, d.file),
  );
  if (download === undefined) return undefined;
  state.downloads = state.downloads.filter((d) => d !== download);
  const found = errorPageLine(download.file, result);
  if (found === undefined) return undefined;
  const { out, open } = failedAfterAll(state, download.attempt, savedErrorText(download, found));
  if (open !== undefined) open.savedFile = download.file;
  return out;
}

/**
 * A call that succeeded, shown by a later look to have failed after all (a background launch
 * found dead, a download found to be an error page): it enters as the failure it was, saying
 * `text`. Returns what that settles, and the pending failure it now belongs to.
 */
function failedAfterAll(
  state: DetectorState,
  attempt: Attempt,
  text: string,
): { out: Episode[]; open: PendingFailure | undefined } {
  const { call, result } = attempt;
  const out = onFailure(
    state,
    call,
    { ...result, ok: false, failure: 'exit-code', text, foundLater: true },
    targetOf(call),
  );
  return { out, open: state.pending.find((p) => p.attempts.some((a) => a.call === call)) };
}

function onSuccess(
  state: DetectorState,
  call: ToolCall,
  result: ToolResult,
  target: CallTarget,
  held: ReadonlySet<PendingFailure> = new Set(),
): Episode[] {
  const out: Episode[] = [];
  const issued = state.issued ?? state.index;
  state.pending = state.pending.filter((p) => {
    // Held, or made before this failure's result came: not an answer to it.
    if (held.has(p) || issued < p.lastIndex) return true;
    const verdict = judgeSuccess(p, call, target, state.edited.has(p));
    if (!verdict.close) {
      // The step the failure itself named stays the step, whatever ran after it.
      if (verdict.enabler && (p.enabler === undefined || !namedByFailure(p, p.enabler))) p.enabler = call;
      if (verdict.clearEdited) state.edited.delete(p);
      return true;
    }
    if (verdict.episode === 'error-fix') out.push(episodeFromPending(p, 'error-fix', call, result));
    if (verdict.episode === 'retry-loop') out.push(episodeFromPending(p, 'retry-loop'));
    return false;
  });
  return out;
}

/** #lesson blocks become Tier 1 episodes; a causal sentence right after a failure is its diagnosis. */
export function onAssistantText(state: DetectorState, event: AssistantText): Episode[] {
  state.lastAssistantText = event;
  const out = lessonBlockEpisodes(event);
  // The first reply to words no pattern read as a correction says whether they were one.
  out.push(...onAdmission(state, event));
  const heard = state.heard;
  state.heard = undefined;
  if (heard !== undefined && state.index - heard.index <= OWN_UP_REACH && ownsUp(event.text))
    out.push(...takeCorrection(state, heard.event, heard.index, heard.call, heard.before));
  const newest = state.pending[state.pending.length - 1];
  const sentence = newest && state.index - newest.lastIndex <= 4 ? causalSentence(event.text) : undefined;
  if (newest && sentence !== undefined && newest.diagnosis === undefined) newest.diagnosis = sentence;
  if (newest && state.index - newest.lastIndex <= 4)
    for (const program of namedSubstitutes(newest, event.text))
      if (!newest.substitutes.includes(program)) newest.substitutes.push(program);
  return out;
}

/** Events from a call's result to a reply that can say the call did not work. */
const ADMIT_REACH = 3;

/**
 * A reply right after a call that reported success, saying it did not work (`admittedFailure`):
 * the call enters as the failure it was, with the agent's sentence as its error. A lookup's
 * reported "no" is an answer, not a failure, and a call already counted as failed stays as it is.
 */
function onAdmission(state: DetectorState, event: AssistantText): Episode[] {
  const newest = state.recentCalls[state.recentCalls.length - 1];
  if (newest === undefined || !newest.result.ok || state.index - newest.index > ADMIT_REACH) return [];
  const sentence = admittedFailure(event.text, newest.call);
  if (sentence === undefined || looksAround(newest.call)) return [];
  return failedAfterAll(state, { call: newest.call, result: newest.result }, sentence).out;
}

/**
 * A correction right after a failure joins it (and keeps it open a little longer); otherwise it
 * is an episode of its own, about the newest call. Words no pattern reads as a correction wait
 * for the agent's reply, which may own up to a mistake (`ownsUp`); pasted terminal output of one
 * of the agent's own commands is a correction of that command (`rerunByUser`).
 */
export function onUserText(state: DetectorState, event: UserText): Episode[] {
  if (event.sidechain === true) return [];
  const before = state.lastAssistantText;
  if (isCorrection(event.text)) {
    const call = correctedCall(state) ?? (reportsSymptom(event.text) ? newestAction(state) : undefined);
    return takeCorrection(state, event, state.index, call, before);
  }
  const attempt =
    rerunByUser(event.text, state.recentCalls) ??
    changedByUser(event.text, state.recentCalls.slice(-RECENT_CALLS_DICTATED));
  if (attempt !== undefined)
    return takeCorrection(state, event, state.index, { call: attempt.call, result: attempt.result }, before);
  // Owned up to, the words are about what the agent last did, a look around included: a lookup's
  // answer taken for the truth ("you have no SSH keys") is what such words most often correct.
  const last = state.lastCall;
  const call =
    last !== undefined && !BOOKKEEPING.has(last.call.tool.toLowerCase()) ? last : correctedCall(state);
  state.heard = { event, index: state.index, call, before };
  return [];
}

/** A user's correction (at event `index`) joined with the newest failure, else its own episode about `call`. */
function takeCorrection(
  state: DetectorState,
  event: UserText,
  index: number,
  call: Attempt | undefined,
  before: AssistantText | undefined,
): Episode[] {
  state.heard = undefined;
  const newest = state.pending[state.pending.length - 1];
  if (newest && newest.userText === undefined && index - newest.lastIndex <= 6) {
    newest.userText = event.text;
    newest.lastIndex = state.index;
    return [];
  }
  const episode = correctionEpisode(event, call, before);
  state.lastCall = undefined;
  state.recentCalls = [];
  return [episode];
}

/** Programs that only show something (beside the lookups of `isProbe`): a look around, not an action. */
const SHOWING = new Set([
  ...['ps', 'cat', 'head', 'tail', 'less', 'more', 'pwd', 'whoami', 'uname', 'env', 'printenv'],
  ...['journalctl', 'dmesg', 'ls', 'find', 'grep', 'rg', 'which', 'wc', 'sort', 'Get-Process', 'Get-Content'],
]);

/** Subcommands that only show something. */
const SHOWING_KEYS = new Set([
  ...['systemctl status', 'systemctl list-units', 'systemctl is-active', 'systemctl show'],
  ...['git status', 'git log', 'git diff', 'git show', 'docker ps', 'docker logs', 'kubectl get'],
]);

/** Tools an agent keeps its own notes and plans with: they do nothing a person could correct. */
const BOOKKEEPING = new Set([
  'todowrite',
  'todoread',
  'todo_write',
  'write_todos',
  'update_plan',
  'exitplanmode',
]);

/**
 * A call that only looked, or only kept the agent's notes: a lookup (`isProbe`), a to-do list or
 * plan update, or a shell command whose every program only shows something.
 */
export function looksAround(call: ToolCall): boolean {
  if (isProbe(call) || BOOKKEEPING.has(call.tool.toLowerCase())) return true;
  if (!isShellTool(call.tool)) return false;
  const keys = commandKeys(commandOf(call) ?? '');
  return (
    keys.length > 0 && keys.every((key) => SHOWING.has(key.split(' ')[0] ?? '') || SHOWING_KEYS.has(key))
  );
}

/** Events back a correction may reach past lookups to the call that did something. */
export const CORRECTED_ACTION_REACH = 40;

/**
 * The call a user's correction is about: the newest call, unless it only looked something up
 * (`ls`, `ps aux | grep x`): then the newest call before it that did something, when it is
 * recent; else none (the correction is kept with the agent's words, never pinned on a lookup).
 */
export function correctedCall(state: DetectorState): Attempt | undefined {
  const last = state.lastCall;
  if (last === undefined || !looksAround(last.call)) return last;
  for (let i = state.recentCalls.length - 1; i >= 0; i -= 1) {
    const action = state.recentCalls[i] as Attempt & { index: number };
    if (state.index - action.index > CORRECTED_ACTION_REACH) return undefined;
    if (!looksAround(action.call)) return { call: action.call, result: action.result };
  }
  return undefined;
}

/**
 * The newest call that did something (not a look around), within `CORRECTED_ACTION_REACH` events,
 * whatever came after it: what a reported symptom is about when the newest call was refused.
 */
export function newestAction(state: DetectorState): Attempt | undefined {
  for (let i = state.recentCalls.length - 1; i >= 0; i -= 1) {
    const action = state.recentCalls[i] as Attempt & { index: number };
    if (state.index - action.index > CORRECTED_ACTION_REACH) return undefined;
    if (!looksAround(action.call)) return { call: action.call, result: action.result };
  }
  return undefined;
}

/** An episode with nothing found yet, at the event that starts it. */
export function newEpisode(event: TranscriptEvent, kind: EpisodeKind, tier: 1 | 2 = 2): Episode {
  return {
    kind,
    tier,
    agent: event.agent,
    session: event.session,
    project: event.project,
    timestamp: event.timestamp,
    tool: undefined,
    failures: [],
    fix: undefined,
    enabler: undefined,
    userText: undefined,
    diagnosis: undefined,
    block: undefined,
    signals: noSignals(),
    evidence: [],
  };
}

function isHang(attempt: Attempt): boolean {
  return attempt.result.failure === 'timeout' || attempt.result.failure === 'interactive-prompt';
}

/** A pending failure that no fix closed: what it still teaches, if anything. */
export function expiredEpisodes(pending: PendingFailure): Episode[] {
  if (pending.probe) return [];
  if (pending.attempts.length >= 3) return [episodeFromPending(pending, 'retry-loop')];
  if (pending.attempts.some(isHang)) return [episodeFromPending(pending, 'timeout')];
  if (pending.userText !== undefined) return [episodeFromPending(pending, 'user-correction')];
  if (pending.diagnosis !== undefined) return [episodeFromPending(pending, 'self-diagnosis')];
  return [];
}

/** A pending failure as an episode; `fix` (and its result) when a call fixed it. */
export function episodeFromPending(
  pending: PendingFailure,
  kind: EpisodeKind,
  fix?: ToolCall,
  fixResult?: ToolResult,
): Episode {
  const first = pending.attempts[0] as Attempt;
  // The enabler explains a fix only when the fix repeated the failed call unchanged.
  const failed = lastAttempt(pending).call;
  const enabler =
    fix && (sameInput(fix, failed) || onlyMoreOutput(failed, fix)) ? pending.enabler : undefined;
  const replacement = fix
    ? (substituteRun(pending, targetOf(fix)) ?? operandRun(pending, fix) ?? nextProgramRun(pending, fix))
    : undefined;
  return {
    ...newEpisode(first.call, kind),
    ...(replacement !== undefined ? { replacement } : {}),
    tool: first.call.tool,
    failures: pending.attempts,
    fix,
    enabler,
    userText: pending.userText,
    diagnosis: pending.diagnosis,
    signals: pendingSignals(pending, fix),
    evidence: pendingEvidence(pending, enabler, fix, fixResult),
  };
}

export function pendingSignals(pending: PendingFailure, fix: ToolCall | undefined): EpisodeSignals {
  const { attempts, userText, diagnosis } = pending;
  return {
    fixConfirmed: fix !== undefined,
    userCorrection: userText !== undefined,
    causal: diagnosis !== undefined,
    hang: attempts.some(isHang),
    retry: isRetryLoop(attempts, fix),
    dataLoss:
      attempts.some((a) => DATA_LOSS.test(JSON.stringify(a.call.input))) || DATA_LOSS.test(userText ?? ''),
    silentFailure: attempts.some(
      (a) => a.result.failure === 'interactive-prompt' || a.result.failure === 'error-output',
    ),
    selfReported: diagnosis !== undefined,
  };
}

/** Three or more calls at one target (the failed attempts and the fix), at least two of them different. */
export function isRetryLoop(attempts: readonly Attempt[], fix: ToolCall | undefined): boolean {
  const calls = [...attempts.map((attempt) => attempt.call), ...(fix ? [fix] : [])];
  return calls.length >= 3 && distinctInputs(calls) >= 2;
}

function ref(event: { file: string; line: number }): EvidenceRef {
  return { file: event.file, line: event.line };
}

function pendingEvidence(
  pending: PendingFailure,
  enabler: ToolCall | undefined,
  fix: ToolCall | undefined,
  fixResult: ToolResult | undefined,
): EvidenceRef[] {
  const refs = pending.attempts.flatMap((attempt) => [ref(attempt.call), ref(attempt.result)]);
  if (enabler) refs.push(ref(enabler));
  if (fix) refs.push(ref(fix));
  if (fixResult) refs.push(ref(fixResult));
  return dedupeEvidence(refs);
}

/** The agent's #lesson blocks in a reply, one Tier 1 episode each. */
export function lessonBlockEpisodes(event: AssistantText): Episode[] {
  return parseLessonBlocks(event.text).map((block) => ({
    ...newEpisode(event, 'lesson-block', 1),
    tool: block.tool,
    block,
    signals: { ...noSignals(), causal: true, selfReported: true },
    evidence: [ref(event)],
  }));
}

/** A user correction on its own, about the newest call (or, with none, the newest reply). */
export function correctionEpisode(
  event: UserText,
  lastCall: Attempt | undefined,
  lastAssistantText: AssistantText | undefined,
): Episode {
  const evidence: EvidenceRef[] = [];
  if (lastCall) evidence.push(ref(lastCall.call));
  else if (lastAssistantText) evidence.push(ref(lastAssistantText));
  evidence.push(ref(event));
  return {
    ...newEpisode(event, 'user-correction'),
    tool: lastCall?.call.tool,
    failures: lastCall ? [{ call: lastCall.call, result: lastCall.result }] : [],
    userText: event.text,
    signals: { ...noSignals(), userCorrection: true, dataLoss: DATA_LOSS.test(event.text) },
    evidence: dedupeEvidence(evidence),
  };
}

/** Evidence once per line, in file and line order. */
export function dedupeEvidence(refs: readonly EvidenceRef[]): EvidenceRef[] {
  const seen = new Set<string>();
  return refs
    .filter((ref) => {
      const key = `${ref.file}:${ref.line}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort((a, b) => (a.file === b.file ? a.line - b.line : a.file < b.file ? -1 : 1));
}
