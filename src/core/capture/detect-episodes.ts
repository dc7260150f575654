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
 */
import { isShellTool } from './classify-result.js';
import type { ToolCall, ToolResult, TranscriptEvent } from './events.js';
import type { Attempt, Episode, EpisodeKind } from './episode.js';
import { noSignals } from './episode.js';
import { parseLessonBlocks } from './lesson-block.js';
import { commandKeys, segmentKey, segments } from './shell-command.js';

export type DetectorOptions = {
  /** Events a failure stays open for a fix. */
  window: number;
};

export const DEFAULT_DETECTOR_OPTIONS: DetectorOptions = { window: 40 };

type Pending = {
  attempts: Attempt[];
  keys: string[];
  family: string;
  lastIndex: number;
  diagnosis: string | undefined;
  userText: string | undefined;
  /** The most recent successful different call since the last attempt. */
  enabler: ToolCall | undefined;
};

const FILE_TOOLS: Record<string, string> = {
  edit: 'edit',
  multiedit: 'edit',
  write: 'edit',
  replace: 'edit',
  write_file: 'edit',
  notebookedit: 'edit',
  str_replace_editor: 'edit',
  apply_patch: 'edit',
  read: 'read',
  read_file: 'read',
  read_many_files: 'read',
  view: 'read',
};

function inputPath(input: Record<string, unknown>): string | undefined {
  for (const key of ['file_path', 'path', 'absolute_path', 'notebook_path', 'filePath', 'dir_path']) {
    const value = input[key];
    if (typeof value === 'string' && value !== '') return value;
  }
  const patch = typeof input.input === 'string' ? input.input : undefined;
  const file = patch ? /\*\*\* (?:Update|Add|Delete) File: (.+)/.exec(patch)?.[1] : undefined;
  return file?.trim();
}

export function commandOf(call: ToolCall): string | undefined {
  const value = call.input.command ?? call.input.cmd;
  return typeof value === 'string' ? value : undefined;
}

/** What a call acts on: its command keys (shell), its file (file tools), else the tool itself. */
export function targetOf(call: ToolCall): { family: string; keys: string[] } {
  const tool = call.tool.toLowerCase();
  if (isShellTool(call.tool)) {
    const command = commandOf(call);
    return { family: 'shell', keys: command === undefined ? ['?'] : commandKeys(command) };
  }
  const fileFamily = FILE_TOOLS[tool];
  const path = inputPath(call.input);
  if (fileFamily !== undefined) return { family: fileFamily, keys: [path ?? '?'] };
  return { family: tool, keys: [tool] };
}

function related(pending: Pending, target: { family: string; keys: string[] }, tool?: string): boolean {
  if (pending.family !== target.family) return false;
  if (target.keys.some((key) => pending.keys.includes(key))) return true;
  // A harness error ("File does not exist", a missing parameter) is about how the tool was used:
  // a later success of the same tool on another target is the corrected use.
  const first = pending.attempts[0];
  return first !== undefined && first.result.failure === 'tool-use-error' && first.call.tool === tool;
}

function sameInput(a: ToolCall, b: ToolCall): boolean {
  return JSON.stringify(a.input) === JSON.stringify(b.input);
}

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
];

const CAUSAL =
  /\b(the (issue|problem|error|bug|cause|reason) (is|was|here is|seems to be)|root cause|this (happens|happened|fails|failed) because|(failed|fails|failing) because|the fix is|that'?s why|i see the (issue|problem)|the error (indicates|means|shows|says))\b/i;

const DATA_LOSS =
  /\b(rm -rf|git reset --hard|git clean -f|git checkout -- |git push (-f|--force)|drop table|truncate table|overwr(o|i)te|data loss|lost (my|the|all)|deleted (my|the|all))\b/i;

/** Commands that look something up: their failure is an answer, not a mistake. */
const PROBES = new Set([
  'which',
  'where',
  'where.exe',
  'type',
  'command',
  'test',
  '[',
  'ls',
  'dir',
  'find',
  'grep',
  'rg',
  'stat',
  'file',
  'pgrep',
  'fd',
  'tasklist',
  'Get-Command',
  'Test-Path',
  'Get-ChildItem',
]);

/** Build and test tools: a failure they report is usually in the code, fixed by editing it. */
const BUILDERS =
  /^(tsc|npx tsc|npx vitest|npx jest|jest|vitest|pytest|python -m|cargo|go|make|mvn|gradle|\.\/gradlew|dotnet|npm run|npm test|pnpm run|pnpm test|yarn|bun|eslint|npx eslint|ruff|mypy|swift)\b/;

/** The network or a remote said no: the environment, not the agent's usage. */
const ENVIRONMENT =
  /\b(Request timed out|Connection timed out|Connection refused|Network is unreachable|No route to host|Could not resolve host|Name or service not known|Temporary failure in name resolution|status code (403|404|429|5\d\d)|Permission denied \(publickey|Host key verification failed|ECONNREFUSED|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|cygheap|child_copy|dofork|Command failed: cygpath)\b/;

function isProbe(call: ToolCall): boolean {
  if (!isShellTool(call.tool)) return false;
  const command = commandOf(call);
  if (command === undefined) return false;
  const keys = commandKeys(command);
  if (keys.length > 0 && keys.every((key) => PROBES.has(key.split(' ')[0] ?? ''))) return true;
  // `tool --version`, `which x && x -V`: asking what is installed.
  return segments(command).every((segment) => {
    const key = segmentKey(segment);
    if (key === undefined) return true;
    if (PROBES.has(key[0] ?? '')) return true;
    const rest = segment.slice(segment.indexOf(key[0] ?? '') + 1);
    return rest.length > 0 && rest.every((arg) => /^(--version|-V|-v|version|--help|-h)$/.test(arg));
  });
}

/** The line of an error that says what went wrong, to tell one failure from another. */
function gistOf(text: string): string {
  const line =
    text.split('\n').find((l) => /error|not found|no module|cannot|failed/i.test(l)) ??
    text.split('\n')[0] ??
    '';
  return line.replace(/\d+/g, '#').trim().slice(0, 120);
}

/** Failures that teach nothing: lookups, the network, the harness itself. */
export function isNoise(call: ToolCall, result: ToolResult): boolean {
  if (isProbe(call)) return true;
  return ENVIRONMENT.test(result.text.slice(0, 3000));
}

/** The file a call acts on, by basename (for a shell command that writes or lists it instead). */
function baseName(path: string): string {
  const parts = path.split(/[\\/]/).filter((p) => p !== '');
  return parts[parts.length - 1] ?? '';
}

/** A later successful call that deals with the same file another way (Read, a heredoc, ls). */
function touchesSameFile(
  pending: Pending,
  call: ToolCall,
  target: { family: string; keys: string[] },
): boolean {
  if (pending.family !== 'edit' && pending.family !== 'read') return false;
  const path = pending.keys[0];
  if (path === undefined || path === '?') return false;
  if ((target.family === 'edit' || target.family === 'read') && target.keys.includes(path)) return true;
  const name = baseName(path);
  const command = commandOf(call);
  return command !== undefined && name.length >= 5 && command.includes(name);
}

export function isCorrection(text: string): boolean {
  const first = text.trim().split(/\n/)[0] ?? '';
  if (first.length === 0 || text.length > 1200) return false;
  return CORRECTION.some((pattern) => pattern.test(first));
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
  let index = 0;
  let pending: Pending[] = [];
  const calls = new Map<string, ToolCall>();
  const recent: TranscriptEvent[] = [];
  let lastCall: { call: ToolCall; result: ToolResult | undefined } | undefined;
  let lastAssistantText: TranscriptEvent | undefined;

  const base = (event: TranscriptEvent, kind: EpisodeKind, tier: 1 | 2 = 2): Episode => ({
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
  });

  const fromPending = (p: Pending, kind: EpisodeKind, fix?: ToolCall, fixResult?: ToolResult): Episode => {
    const first = p.attempts[0] as Attempt;
    const episode = base(first.call, kind);
    episode.tool = first.call.tool;
    episode.failures = p.attempts;
    episode.fix = fix;
    episode.enabler =
      fix && sameInput(fix, (p.attempts[p.attempts.length - 1] as Attempt).call) ? p.enabler : undefined;
    episode.diagnosis = p.diagnosis;
    episode.userText = p.userText;
    const signals = episode.signals;
    signals.fixConfirmed = fix !== undefined;
    signals.userCorrection = p.userText !== undefined;
    signals.causal = p.diagnosis !== undefined;
    signals.selfReported = p.diagnosis !== undefined;
    signals.hang = p.attempts.some(
      (a) => a.result.failure === 'timeout' || a.result.failure === 'interactive-prompt',
    );
    signals.silentFailure = p.attempts.some(
      (a) => a.result.failure === 'interactive-prompt' || a.result.failure === 'error-output',
    );
    signals.dataLoss =
      p.attempts.some((a) => DATA_LOSS.test(JSON.stringify(a.call.input))) ||
      DATA_LOSS.test(p.userText ?? '');
    for (const attempt of p.attempts) {
      episode.evidence.push({ file: attempt.call.file, line: attempt.call.line });
      episode.evidence.push({ file: attempt.result.file, line: attempt.result.line });
    }
    if (episode.enabler) episode.evidence.push({ file: episode.enabler.file, line: episode.enabler.line });
    if (fix) episode.evidence.push({ file: fix.file, line: fix.line });
    if (fixResult) episode.evidence.push({ file: fixResult.file, line: fixResult.line });
    episode.evidence = dedupeEvidence(episode.evidence);
    return episode;
  };

  const expire = (p: Pending): Episode[] => {
    if (p.attempts.length >= 3) return [fromPending(p, 'retry-loop')];
    if (p.attempts.some((a) => a.result.failure === 'timeout' || a.result.failure === 'interactive-prompt'))
      return [fromPending(p, 'timeout')];
    if (p.userText !== undefined) return [fromPending(p, 'user-correction')];
    if (p.diagnosis !== undefined) return [fromPending(p, 'self-diagnosis')];
    return [];
  };

  const expireOld = (): Episode[] => {
    const out: Episode[] = [];
    pending = pending.filter((p) => {
      if (index - p.lastIndex <= options.window) return true;
      out.push(...expire(p));
      return false;
    });
    return out;
  };

  /** Pending shell failures of build/test tools after which the agent edited files. */
  const edited = new Set<Pending>();
  const codeChanged = (p: Pending, last: ToolCall): boolean => {
    if (p.family !== 'shell' || !edited.has(p)) return false;
    const command = commandOf(last) ?? '';
    return commandKeys(command).some((key) => BUILDERS.test(key));
  };

  const onResult = (result: ToolResult): Episode[] => {
    const call = calls.get(result.callId);
    if (!call) return [];
    calls.delete(result.callId);
    lastCall = { call, result };
    // A success with no failure waiting for its fix changes nothing else (the common case).
    if (result.ok && pending.length === 0) return [];
    const target = targetOf(call);
    if (result.ok && target.family === 'edit')
      for (const p of pending) if (p.family === 'shell') edited.add(p);
    const out: Episode[] = [];
    if (!result.ok) {
      if (isNoise(call, result)) return out;
      const open = [...pending].reverse().find((p) => related(p, target, call.tool));
      const previous = open?.attempts[open.attempts.length - 1];
      if (
        open &&
        previous &&
        open.enabler !== undefined &&
        open.family === 'shell' &&
        gistOf(previous.result.text) !== gistOf(result.text)
      ) {
        // The step in between (an install, a config change) cured the first error; the retry
        // now fails for another reason, which is a new story.
        out.push(fromPending(open, 'error-fix', open.enabler));
        pending = pending.filter((p) => p !== open);
        pending.push({
          attempts: [{ call, result }],
          keys: target.keys,
          family: target.family,
          lastIndex: index,
          diagnosis: undefined,
          userText: undefined,
          enabler: undefined,
        });
      } else if (open) {
        open.attempts.push({ call, result });
        open.lastIndex = index;
        open.enabler = undefined;
      } else {
        pending.push({
          attempts: [{ call, result }],
          keys: target.keys,
          family: target.family,
          lastIndex: index,
          diagnosis: undefined,
          userText: undefined,
          enabler: undefined,
        });
      }
      return out;
    }
    pending = pending.filter((p) => {
      const last = (p.attempts[p.attempts.length - 1] as Attempt).call;
      if (!related(p, target, call.tool)) {
        if (touchesSameFile(p, call, target)) {
          out.push(fromPending(p, 'error-fix', call, result));
          return false;
        }
        if (target.family === p.family) p.enabler = call;
        else if (isShellTool(call.tool) && p.family === 'shell' && !isProbe(call)) p.enabler = call;
        else if (p.family !== 'shell') p.enabler = call;
        if (isShellTool(call.tool) && call.tool === last.tool && p.family === 'shell') edited.delete(p);
        return true;
      }
      if (codeChanged(p, last)) {
        // The command was right; the code was wrong and got fixed: ordinary iteration.
        return false;
      }
      if (!sameInput(call, last) || p.enabler !== undefined) {
        out.push(fromPending(p, 'error-fix', call, result));
        return false;
      }
      // The same call worked when simply repeated: a transient failure, unless it looped.
      out.push(...(p.attempts.length >= 3 ? [fromPending(p, 'retry-loop')] : []));
      return false;
    });
    return out;
  };

  const onAssistantText = (event: Extract<TranscriptEvent, { kind: 'assistant-text' }>): Episode[] => {
    lastAssistantText = event;
    const out: Episode[] = [];
    for (const block of parseLessonBlocks(event.text)) {
      const episode = base(event, 'lesson-block', 1);
      episode.block = block;
      episode.tool = block.tool;
      episode.signals.selfReported = true;
      episode.signals.causal = true;
      episode.evidence = [{ file: event.file, line: event.line }];
      out.push(episode);
    }
    const newest = pending[pending.length - 1];
    const sentence = newest && index - newest.lastIndex <= 4 ? causalSentence(event.text) : undefined;
    if (newest && sentence !== undefined && newest.diagnosis === undefined) newest.diagnosis = sentence;
    return out;
  };

  const onUserText = (event: Extract<TranscriptEvent, { kind: 'user-text' }>): Episode[] => {
    if (event.sidechain === true || !isCorrection(event.text)) return [];
    const newest = pending[pending.length - 1];
    if (newest && newest.userText === undefined && index - newest.lastIndex <= 6) {
      newest.userText = event.text;
      newest.lastIndex = index;
      return [];
    }
    const episode = base(event, 'user-correction');
    episode.userText = event.text;
    episode.signals.userCorrection = true;
    episode.signals.dataLoss = DATA_LOSS.test(event.text);
    const evidence = [];
    if (lastCall) {
      episode.tool = lastCall.call.tool;
      episode.failures = lastCall.result ? [{ call: lastCall.call, result: lastCall.result }] : [];
      evidence.push({ file: lastCall.call.file, line: lastCall.call.line });
    } else if (lastAssistantText) {
      evidence.push({ file: lastAssistantText.file, line: lastAssistantText.line });
    }
    evidence.push({ file: event.file, line: event.line });
    episode.evidence = dedupeEvidence(evidence);
    lastCall = undefined;
    return [episode];
  };

  return {
    push(event) {
      index += 1;
      recent.push(event);
      if (recent.length > options.window) recent.shift();
      const out: Episode[] = [];
      switch (event.kind) {
        case 'tool-call':
          calls.set(event.callId, event);
          if (calls.size > 256) calls.delete(calls.keys().next().value as string);
          break;
        case 'tool-result':
          out.push(...onResult(event));
          break;
        case 'assistant-text':
          out.push(...onAssistantText(event));
          break;
        case 'user-text':
          out.push(...onUserText(event));
          break;
        case 'rejection':
        case 'interruption':
          if (event.callId !== undefined) calls.delete(event.callId);
          lastCall = undefined;
          break;
        case 'compaction':
          for (const p of pending) out.push(...expire(p));
          pending = [];
          break;
      }
      out.push(...expireOld());
      return out;
    },
    flush() {
      const out: Episode[] = [];
      for (const p of pending) out.push(...expire(p));
      pending = [];
      return out;
    },
    recent: () => [...recent],
    hasPending: () => pending.length > 0,
  };
}

function dedupeEvidence(refs: { file: string; line: number }[]): { file: string; line: number }[] {
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
