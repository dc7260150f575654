/**
 * An episode (already redacted) to a candidate draft: triggers (tools, a command regex anchored on
 * the executable and the argument that made the difference, with a negative lookahead for the
 * visible fix, path globs), a summary that can be injected as it is, a body with the details,
 * tags (`lang:`, `tool:`, `topic:`, `env:`, `severity:`) and a content hash that is the same for
 * every repeat of the same pattern, so repeats merge instead of piling up.
 *
 * `draftCandidate` runs the stages top to bottom: the facts of the episode once
 * (`episodeFacts`), then its triggers, wording, classification (`draft-tags.ts`), hash key and
 * body, each a pure function of the episode and those facts.
 */
import type { Category, LessonSeverity } from '../lesson/schema.js';
import { SUMMARY_MAX } from '../lesson/schema.js';
import { withoutInvisible } from '../lesson/constants.js';
import {
  wordCorrection,
  wordDiagnosis,
  wordErrorFix,
  wordRetryLoop,
  wordTimeout,
} from './advice/word-advice.js';
import { fixEqualsFailure } from './advice/advice-shape.js';
import type { Advice, AdviceDrop } from './advice/word-advice.js';
import { commandOf, isAbsolutePath, targetPath } from './call-target.js';
import { NONZERO_EXIT, errorGist, hookToolName, isShellTool } from './classify-result.js';
import { checkedNames } from './background-launch.js';
import { blockTriggers } from './block-lesson.js';
import { classifyScope } from './classify-scope.js';
import type { ScopeDecision } from './classify-scope.js';
import { blockTags, categoryOf, draftTags, severityOf, topicOf } from './draft-tags.js';
import type { Attempt, Episode, EpisodeKind, EpisodeSignals, EvidenceRef } from './episode.js';
import type { ToolCall } from './events.js';
import { errorPattern } from './error-pattern.js';
import { contentHash } from './hash.js';
import { curlWithoutFail, urlHost } from './saved-download.js';
import {
  DOUBLE_QUOTED_VARIABLE,
  commandKeys,
  commandObject,
  commandTrigger,
  diffCommands,
  escapeRegex,
  expandedInDoubleQuotes,
  segmentKey,
  segments,
} from './shell-command.js';
import { asksState, droppedOverSsh, foundUnder, isLookupKey, refusedDirectory } from './pending-failure.js';
import type { FoundUnder } from './pending-failure.js';
import { CD_ALONE_TRIGGER, FRESH_SHELL_AGENTS, cdAlone } from './fresh-shell.js';
import type { Host } from '../inject/types.js';

export type CandidateDraft = {
  contentHash: string;
  kind: EpisodeKind;
  tier: 1 | 2;
  /** The tool the lesson is about (`Bash`, `Edit`, ...), when there is one. */
  tool: string | undefined;
  /** What makes it fire, for people: the command regex, the path glob or the tool. */
  trigger: string;
  summary: string;
  body: string;
  mistake: string | undefined;
  remediation: string | undefined;
  tools: string[];
  commands: string[];
  paths: string[];
  /** The failure's error words (error-pattern.ts): the lesson waits for them (empty: it fires before calls). */
  errors: string[];
  /** The agents the lesson holds for (absent: every agent): a habit of one agent's tools. */
  agents?: Host[];
  tags: string[];
  category: Category;
  severity: LessonSeverity;
  /** Where the lesson belongs (project, user, universal) and why: approval writes it there. */
  scope: ScopeDecision;
  signals: EpisodeSignals;
  session: string;
  project: string | undefined;
  agent: string;
  evidence: EvidenceRef[];
  /** `file:line` of the first evidence: the same episode seen twice is counted once. */
  anchor: string;
  /** Why no candidate should be made of it (the fix repeats the failure, or nothing can be named). */
  drop: AdviceDrop | undefined;
  /**
   * A #lesson block joined with the heuristic find of its episode: the find's content hash (a
   * candidate stored under it is the same lesson) and the anchors the find and the block had.
   */
  joined?: { hashes: string[]; anchors: string[] };
};

/** `file:line` of an evidence reference (`?:0` when there is none): a draft's anchor. */
export function anchorOf(ref: EvidenceRef | undefined): string {
  return ref === undefined ? '?:0' : `${ref.file}:${ref.line}`;
}

export function draftCandidate(episode: Episode): CandidateDraft {
  const facts = episodeFacts(episode);
  const triggers = draftTriggersOf(episode, facts);
  const { tools, commands, paths } = triggers;
  const worded = wordEpisode(episode, facts);
  const { summary, mistake, remediation } = worded;
  // A user's correction pinned on no call (it followed only words, or only a look around) has
  // nothing to fire on: it would reach every session blind. Such advice needs a person to scope it.
  const drop =
    worded.drop ??
    (episode.kind === 'user-correction' &&
    episode.failures.length === 0 &&
    tools.length + commands.length + paths.length === 0
      ? 'nothing-to-fire-on'
      : undefined);
  const severity = severityOf(episode);
  const topic = topicOf(episode, facts.errorText);
  const tags = draftTags(episode, { ...facts, key: facts.key ?? triggers.key, topic, severity });
  const category = categoryOf(episode.kind, topic);
  return {
    contentHash: contentHash(hashKeyOf(episode, facts, mistake, remediation)),
    kind: episode.kind,
    tier: episode.tier,
    tool: facts.tool,
    trigger: commands[0] ?? paths[0] ?? episode.block?.trigger ?? facts.tool ?? '',
    summary,
    body: draftBody(episode, facts) + droppedTagsNote(episode),
    mistake: mistake === undefined ? undefined : oneLine(mistake, 1000),
    remediation: remediation === undefined ? undefined : oneLine(remediation, 1000),
    tools,
    commands,
    paths,
    errors: draftErrors(episode, facts),
    // A `cd` on its own changes nothing only where each call starts a new shell.
    ...(facts.cdAlone !== undefined ? { agents: [...FRESH_SHELL_AGENTS] } : {}),
    tags,
    category,
    severity,
    scope: classifyScope({
      summary,
      mistake,
      remediation,
      command:
        facts.failedCommand ??
        (episode.block?.trigger !== undefined && facts.shell ? episode.block.trigger : undefined),
      paths,
      tags,
      category,
    }),
    signals: episode.signals,
    session: episode.session,
    project: episode.project,
    agent: episode.agent,
    evidence: episode.evidence,
    anchor: anchorOf(episode.evidence[0]),
    drop,
    ...(episode.joined ? { joined: joinedOf(episode.joined) } : {}),
  };
}

/**
 * A lesson found from a failure waits for that failure's error: it speaks beside the result of a
 * call that printed it, not before every call its command or path matches (most of those go
 * well). A #lesson block fires where its author scoped it; a correction with no failure, a
 * download that saved an error page and exited 0, or a launch found dead later, has no error in
 * its call's output to wait for.
 */
export function draftErrors(episode: Episode, facts: EpisodeFacts): string[] {
  const first = facts.first;
  if (episode.kind === 'lesson-block' || first === undefined) return [];
  if (curlWithoutFail(facts.failedCommand, facts.errorText)) return [];
  if (episode.failures.some((attempt) => attempt.result.foundLater === true)) return [];
  // the words the first failure printed: the call the lesson's trigger is anchored on
  const text = first.result.text;
  const own = errorGist(text, programsOf(facts.failedCommand));
  const pattern =
    errorPattern(own, text) ??
    errorPattern(facts.gist, text) ??
    // No words name the error (a bare exit code, a redacted line): the lesson still waits for its
    // command to fail, not to run.
    (facts.shell && (first.result.exitCode ?? 0) > 0 ? NONZERO_EXIT.source : undefined);
  return pattern === undefined ? [] : [pattern];
}

/** What a joined block stands for besides itself: the heuristic find's hash and both anchors. */
function joinedOf(joined: NonNullable<Episode['joined']>): NonNullable<CandidateDraft['joined']> {
  const found = draftCandidate(joined.heuristic);
  return {
    hashes: [found.contentHash],
    anchors: [found.anchor, anchorOf(joined.blockRef)],
  };
}

/**
 * A #lesson block fires on what its `tool:` and `trigger:` name (block-lesson.ts); a block that
 * names no command or path, joined with the failure it is about, fires on that failure's
 * triggers; every other episode on the triggers the heuristics derive.
 */
export function draftTriggersOf(
  episode: Episode,
  facts: EpisodeFacts,
): DraftTriggers & { key: string | undefined } {
  if (episode.block === undefined) return { ...draftTriggers(facts), key: undefined };
  const own = blockTriggers(episode.block, episode.project);
  const found = episode.joined?.heuristic;
  if (own.commands.length > 0 || own.paths.length > 0 || found === undefined) return own;
  return { ...draftTriggers(episodeFacts(found)), key: undefined };
}

/** The block's tags the lesson schema refuses, said in the body (they are not kept). */
function droppedTagsNote(episode: Episode): string {
  const dropped = blockTags(episode.block?.tags ?? []).dropped;
  if (dropped.length === 0) return '';
  return `Tags of the block not kept: ${dropped.map((d) => `\`${oneLine(d.tag, 100)}\` (${d.reason})`).join('; ')}\n`;
}

/** What the stages need to know about an episode, worked out once. */
export type EpisodeFacts = {
  /** The first failed attempt, when there is one. */
  first: Attempt | undefined;
  /** Its call. */
  call: ToolCall | undefined;
  tool: string | undefined;
  shell: boolean;
  failedCommand: string | undefined;
  fixCommand: string | undefined;
  /** The newest failure's output (`''` with none). */
  errorText: string;
  /** Its telling line (`''` with no failure). */
  gist: string;
  /** The failed command's key (`git push`), when a command failed. */
  key: string | undefined;
  /** The file the first failed call acted on. */
  path: string | undefined;
  glob: string | undefined;
  /** The harness refused the call (a tool-use error): how the tool was used, not where. */
  harness: boolean;
  /** The user corrected the call (no failure of its own): the lesson is about what it acted on. */
  correction: boolean;
  /** The harness refused the shell call's working folder: the tool's use, not the command. */
  refusedDirectory: boolean;
  /** A path the failed command did not find in the working folder, and the folder the fix found it in. */
  moved: FoundUnder | undefined;
  /** The folder of a `cd` on its own that the next shell did not keep (`cdAlone`). */
  cdAlone: string | undefined;
  /** A program the host of an ssh command did not have, which the fix did without (`droppedOverSsh`). */
  remoteMissing: { program: string; host: string } | undefined;
};

/** The programs a command line runs (`refreshenv; python --version` → refreshenv, python; over ssh, the remote one). */
function programsOf(command: string | undefined): string[] {
  if (command === undefined) return [];
  return commandKeys(command).flatMap((key) => {
    const words = key.split(' ');
    const program = words[0] === 'ssh' ? words[1] : words[0];
    return program === undefined ? [] : [program];
  });
}

/**
 * What a failed command is for: its first key that does more than look something up or ask for a
 * state (`gh auth` of `which gh && gh auth status`, `gh ssh-key` of `gh auth status && gh ssh-key
 * list`), else its first key.
 */
function keyOf(command: string): string {
  const keys = commandKeys(command);
  const asked = stateQueries(command);
  return (
    keys.find((key) => !isLookupKey(key) && !asked.has(key)) ??
    keys.find((key) => !isLookupKey(key)) ??
    keys[0] ??
    command.split(/\s+/)[0] ??
    ''
  );
}

/** The keys of a command line's parts that only ask their program how things stand (`gh auth status`). */
function stateQueries(command: string): Set<string> {
  const asked = new Set<string>();
  for (const segment of segments(command)) {
    const key = segmentKey(segment);
    if (key !== undefined && asksState(segment, key)) asked.add(key.join(' '));
  }
  return asked;
}

export function episodeFacts(episode: Episode): EpisodeFacts {
  const first = episode.failures[0];
  const last = episode.failures[episode.failures.length - 1];
  const call = first?.call;
  const tool = episode.tool ?? call?.tool;
  const failedCommand = call ? commandOf(call) : undefined;
  const errorText = last?.result.text ?? '';
  const path = targetPath(call);
  return {
    first,
    call,
    tool,
    shell: isShellTool(tool),
    failedCommand,
    fixCommand: episode.fix ? commandOf(episode.fix) : undefined,
    errorText,
    gist: first ? errorGist(errorText, programsOf(failedCommand)) : '',
    key: failedCommand !== undefined ? keyOf(failedCommand) : undefined,
    path,
    // A user's correction of an edit is about that file, not every file of its kind.
    glob:
      path === undefined
        ? undefined
        : episode.kind === 'user-correction'
          ? fileGlob(path, episode.project)
          : pathGlob(path, episode.project),
    harness: first?.result.failure === 'tool-use-error',
    refusedDirectory: first !== undefined && refusedDirectory(first.call, first.result),
    correction: episode.kind === 'user-correction',
    moved:
      last !== undefined && episode.fix !== undefined
        ? foundUnder(last.call, errorText, episode.fix)
        : undefined,
    cdAlone: first !== undefined ? cdAlone(first.call) : undefined,
    remoteMissing:
      last !== undefined && episode.fix !== undefined
        ? droppedOverSsh(last.call, errorText, episode.fix)
        : undefined,
  };
}

export type DraftTriggers = { tools: string[]; commands: string[]; paths: string[] };

/**
 * A shell lesson fires on its command (anchored on the failed command's key, told apart from the
 * fix); a file lesson on its path glob, unless the harness refused the call; both on their tool.
 */
export function draftTriggers(facts: EpisodeFacts): DraftTriggers {
  const { shell, key, failedCommand, fixCommand, glob, harness, tool } = facts;
  const commands: string[] = [];
  // A `cd` on its own: the lesson is the shell's, whatever the folder.
  if (facts.cdAlone !== undefined) commands.push(CD_ALONE_TRIGGER);
  else if (shell && key !== undefined && key !== '' && !facts.refusedDirectory) {
    const savedPage = curlWithoutFail(failedCommand, facts.errorText);
    // A curl download that saved an error page: fire on curl without -f from the same host.
    // A path not found in the working folder: fire where the command gives it that way again.
    const diff = savedPage
      ? { removed: [], added: ['-f'] }
      : facts.moved !== undefined
        ? { removed: [facts.moved.path], added: [] }
        : facts.remoteMissing !== undefined
          ? undefined
          : fixCommand !== undefined && failedCommand !== undefined
            ? diffCommands(failedCommand, fixCommand)
            : undefined;
    // A user's correction is about what the call acted on, not every call of its program. A
    // process check (`ps aux | grep x`) acts on nothing: it is told apart by the name it looked
    // for, not by `aux`, which every such check carries. A call that names nothing it acts on
    // acted where it ran (`cd ~/site && git push`): there, not at every push.
    const object =
      facts.correction && failedCommand !== undefined && (diff?.removed.length ?? 0) === 0
        ? ((facts.call !== undefined ? checkedNames(facts.call)[0] : undefined) ??
          commandObject(failedCommand, key) ??
          commandObject(failedCommand, 'cd'))
        : undefined;
    const host = savedPage ? urlHost(failedCommand) : undefined;
    // A fix that only took a variable out of double quotes: fire where one sits in them.
    const quoted =
      failedCommand !== undefined &&
      fixCommand !== undefined &&
      expandedInDoubleQuotes(failedCommand, fixCommand) !== undefined;
    commands.push(
      commandTrigger(
        key,
        object === undefined ? diff : { removed: [object], added: diff?.added ?? [] },
        host !== undefined
          ? `:\\/\\/${escapeRegex(host)}(?=[:/"'\\s]|$)`
          : quoted
            ? DOUBLE_QUOTED_VARIABLE
            : undefined,
      ),
    );
  }
  return {
    tools: tool !== undefined ? [hookToolName(tool)] : [],
    commands,
    paths: glob !== undefined && !harness && !shell ? [glob] : [],
  };
}

export type Wording = { summary: string; mistake: string | undefined; remediation: string | undefined };

/**
 * The summary (one line, at most SUMMARY_MAX, never empty), the mistake, the remediation, and why
 * the episode should make no candidate at all (`drop`).
 */
export function wordEpisode(
  episode: Episode,
  facts: EpisodeFacts,
): Wording & { drop: AdviceDrop | undefined } {
  const worded = wordKind(episode, facts);
  const { wording } = worded;
  // Whichever kind worded it, a heuristic fix that names only the command that failed teaches
  // nothing (an agent's own #lesson block keeps its words).
  const repeats = episode.kind !== 'lesson-block' && fixEqualsFailure(wording.mistake, wording.remediation);
  const drop = worded.drop ?? (repeats ? 'fix-repeats-failure' : undefined);
  let summary = wording.summary;
  if (episode.userText !== undefined && episode.kind !== 'user-correction') {
    summary += ` (user: "${oneLine(episode.userText, 80)}")`;
  }
  summary = oneLine(summary, SUMMARY_MAX);
  if (summary === '') summary = 'Lesson captured from a transcript';
  return { ...wording, summary, drop };
}

/** The wording for each episode kind, before the summary is cut to one line (`advice/word-advice.ts`). */
export function wordKind(episode: Episode, facts: EpisodeFacts): Advice {
  switch (episode.kind) {
    case 'lesson-block': {
      const block = episode.block;
      const mistake = block?.mistake;
      const remediation = block?.fix;
      // The agent's own words, arranged as advice: when the trigger comes up, the fix, and why.
      const when = block?.trigger ? `When \`${block.trigger.replaceAll('`', '')}\`: ` : '';
      const advice = remediation ?? mistake ?? '';
      const why = remediation && mistake ? ` (${mistake})` : '';
      const summary = `${when}${advice}${why}`;
      return { wording: { summary, mistake, remediation }, drop: undefined };
    }
    case 'error-fix':
      return wordErrorFix(episode, facts);
    case 'user-correction':
      return wordCorrection(episode, facts);
    case 'retry-loop':
      return wordRetryLoop(episode, facts);
    case 'timeout':
      return wordTimeout(episode, facts);
    case 'self-diagnosis':
      return wordDiagnosis(episode, facts);
  }
}

/**
 * The text the content hash is taken of: the same for every repeat of the same pattern (numbers,
 * quoted strings, paths and redactions normalized away), so repeats merge.
 */
export function hashKeyOf(
  episode: Episode,
  facts: EpisodeFacts,
  mistake: string | undefined,
  remediation: string | undefined,
): string {
  const { tool, key, shell, harness, glob, gist } = facts;
  if (episode.kind === 'lesson-block')
    return `block|${(tool ?? '').toLowerCase()}|${normalize(mistake ?? '')}|${normalize(remediation ?? '')}`;
  if (episode.kind === 'user-correction')
    return `correction|${(tool ?? '').toLowerCase()}|${key ?? ''}|${normalize(episode.userText ?? '')}`;
  return `${shell ? 'shell' : (tool ?? '').toLowerCase()}|${key ?? (harness ? '' : (glob ?? ''))}|${normalize(gist)}`;
}

/** The draft's Markdown body: what failed, the error, what worked, and the words around it. */
export function draftBody(episode: Episode, facts: EpisodeFacts): string {
  const { failedCommand, call, tool, first, errorText, fixCommand } = facts;
  return [
    `Found by \`lore scan\` (${episode.kind}, tier ${episode.tier}) in a ${episode.agent} session.`,
    '',
    ...(failedCommand !== undefined
      ? ['What failed:', '', '```', oneLine(failedCommand, 400), '```', '']
      : call
        ? [`What failed: ${tool} ${oneLine(describeInput(call), 200)}`, '']
        : []),
    ...(first
      ? [
          'Error:',
          '',
          '```',
          errorText.replace(ANSI, '').split('\n').slice(0, 8).join('\n').slice(0, 800),
          '```',
          '',
        ]
      : []),
    ...(fixCommand !== undefined ? ['What worked:', '', '```', oneLine(fixCommand, 400), '```', ''] : []),
    ...(episode.enabler
      ? [`Made it work: ${episode.enabler.tool} ${oneLine(describeInput(episode.enabler), 200)}`, '']
      : []),
    ...(episode.diagnosis ? [`The agent's diagnosis: ${episode.diagnosis}`, ''] : []),
    ...(episode.userText ? [`The user said: "${oneLine(episode.userText, 400)}"`, ''] : []),
    ...(episode.block ? [`The agent's #lesson block: ${JSON.stringify(episode.block)}`, ''] : []),
  ].join('\n');
}

// eslint-disable-next-line no-control-regex -- stripping ANSI escapes
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]|\u001b\][^\u0007]*\u0007/g;

function oneLine(text: string, max: number): string {
  const flat = withoutInvisible(text).replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

function normalize(text: string): string {
  return text
    .toLowerCase()
    .replace(/\[redacted:[a-z-]+\]/g, '')
    .replace(/(["'`]).*?\1/g, '')
    .replace(/([a-z]:)?[/\\][^\s:]+/g, '')
    .replace(/\d+/g, '#')
    .replace(/[^a-z#]+/g, ' ')
    .trim()
    .slice(0, 80);
}

/** A repository-relative glob for a file, or `**\/*.ext` when it lies outside the project. */
export function pathGlob(path: string, project: string | undefined): string | undefined {
  const normal = path.replace(/\\/g, '/');
  // A relative path is given from the project (the session's working folder): it is in the project.
  if (!isAbsolutePath(normal)) {
    const rel = normal.replace(/^(\.\/)+/, '');
    if (rel !== '' && !rel.split('/').includes('..') && !/[[\]{}*?]/.test(rel)) return rel;
  }
  if (project !== undefined) {
    const root = project.replace(/\\/g, '/').replace(/\/+$/, '');
    if (normal.startsWith(`${root}/`)) {
      const rel = normal.slice(root.length + 1);
      if (rel !== '' && !rel.split('/').includes('..') && !/[[\]{}*?]/.test(rel)) return rel;
    }
  }
  const ext = /\.([A-Za-z0-9]{1,8})$/.exec(normal)?.[1];
  return ext === undefined ? undefined : `**/*.${ext.toLowerCase()}`;
}

/**
 * The glob of one file: its path in the project, else its folder and name wherever it lies
 * (any path ending in `blocky-dashboard/main.py`).
 */
export function fileGlob(path: string, project: string | undefined): string | undefined {
  const inProject = pathGlob(path, project);
  if (inProject !== undefined && !inProject.startsWith('**/')) return inProject;
  const parts = path
    .replace(/\\/g, '/')
    .split('/')
    .filter((part) => part !== '');
  const tail = parts.slice(-2);
  if (tail.length === 0 || tail.some((part) => /[[\]{}*?]/.test(part))) return inProject;
  return `**/${tail.join('/')}`;
}

function describeInput(call: ToolCall): string {
  const path = targetPath(call);
  if (path !== undefined) return path;
  const command = commandOf(call);
  if (command !== undefined) return command;
  return JSON.stringify(call.input).slice(0, 200);
}
