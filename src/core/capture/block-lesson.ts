/**
 * A `#lesson` block as a lesson that fires: its `tool:` and `trigger:` turned into triggers the
 * way the heuristic tier derives them from commands (a command regex for shell triggers, a path
 * glob for path triggers, the tool name otherwise), its `category:value` tags kept as written when
 * the lesson schema takes them, and the block joined with the heuristic find of the same episode
 * (the failure it is about), so one episode gives one candidate with the block's words.
 */
import { compileGlob } from '../match/glob.js';
import { toRepoPath } from '../match/repo-path.js';
import { commandOf, targetPath } from './call-target.js';
import { hookToolName, isShellTool } from './classify-result.js';
import { dedupeEvidence } from './detect-episodes.js';
import type { Episode, EvidenceRef } from './episode.js';
import type { LessonBlock } from './lesson-block.js';
import { mergeSignals } from './score.js';
import { commandTrigger, segmentKey, segments, stripQuotes, tokenize } from './shell-command.js';

export type BlockTriggers = {
  tools: string[];
  commands: string[];
  paths: string[];
  /** The command the trigger names (`cargo test`), when it names one. */
  key: string | undefined;
};

/** What a block's `tool:` names: a shell, a file tool, another agent tool, or a program (`cargo`). */
export type BlockToolKind = 'shell' | 'file' | 'agent' | 'program' | 'none';

/** Agent tools that act on a file: a trigger of theirs is a path. */
const FILE_TOOLS = new Set([
  'read',
  'write',
  'edit',
  'multiedit',
  'notebookedit',
  'read_file',
  'write_file',
  'replace',
  'read_many_files',
  'apply_patch',
  'str_replace_editor',
  'view',
]);

/** Agent tools that are neither shells nor file tools (compared lowercased). */
const AGENT_TOOLS = new Set([
  'glob',
  'grep',
  'ls',
  'webfetch',
  'websearch',
  'task',
  'agent',
  'todowrite',
  'todoread',
  'skill',
  'glob_search',
  'grep_search',
  'search_file_content',
  'list_directory',
  'web_fetch',
  'google_web_search',
  'save_memory',
  'update_plan',
  'view_image',
  'web_search',
]);

/** Words a trigger written as prose starts with before the command (`when running cargo test`). */
const LEAD_WORDS = new Set([
  'when',
  'whenever',
  'while',
  'running',
  'run',
  'calling',
  'using',
  'executing',
  'invoking',
  'on',
  'after',
  'before',
  'during',
  'with',
  'for',
  'in',
  'e.g.',
  'e.g.,',
  'eg',
  '$',
]);

/** First words that make a trigger prose, not a command (`the tests hang`). */
const PROSE_WORDS = new Set([
  'the',
  'a',
  'an',
  'any',
  'every',
  'all',
  'this',
  'that',
  'some',
  'my',
  'our',
  'its',
]);

/** Second words after which a third one still names the command (`npm run build`). */
const RUNNERS = new Set(['run', 'exec', 'compose', 'x', 'dlx', 'run-script', 'workspace']);

export function blockToolKind(tool: string | undefined): BlockToolKind {
  if (tool === undefined || tool.trim() === '') return 'none';
  const lower = tool.trim().toLowerCase();
  if (isShellTool(lower)) return 'shell';
  if (FILE_TOOLS.has(lower)) return 'file';
  // Host tools are capitalized (Claude Code), snake_case (Gemini, Codex) or MCP tools.
  if (AGENT_TOOLS.has(lower) || lower.includes('__') || /[A-Z]/.test(tool)) return 'agent';
  return /^[a-z0-9][\w.+-]*$/.test(lower) ? 'program' : 'agent';
}

/** The block's tool, cleaned: the first name of a list, without quotes or backticks. */
export function blockTool(block: Pick<LessonBlock, 'tool'>): string | undefined {
  const first = block.tool
    ?.split(/[,;]/)[0]
    ?.trim()
    .replace(/^[`"']+|[`"']+$/g, '');
  return first === undefined || first === '' ? undefined : first;
}

/** The trigger's text: its first `code span` when it has one, without quotes and lead words. */
export function triggerText(trigger: string | undefined): string | undefined {
  if (trigger === undefined) return undefined;
  const span = /`([^`\n]+)`/.exec(trigger)?.[1];
  let text = (span ?? trigger).trim().replace(/^["']|["']$/g, '');
  if (span === undefined) {
    const words = text.split(/\s+/);
    while (words.length > 1 && LEAD_WORDS.has((words[0] ?? '').toLowerCase())) words.shift();
    text = words.join(' ');
  }
  text = text.replace(/^\$\s+/, '').trim();
  return text === '' ? undefined : text;
}

function isPathLike(token: string): boolean {
  return (
    !/\s/.test(token) &&
    (/[*?{]/.test(token) || token.includes('/') || token.includes('\\') || /\.[A-Za-z0-9]{1,8}$/.test(token))
  );
}

/**
 * A repository-relative glob for a path the trigger names: relative to the project when it lies
 * inside, `**\/name` for a file elsewhere; none for `..` paths (the schema refuses them).
 */
export function triggerGlob(text: string, project: string | undefined): string | undefined {
  const token = text.split(/\s+/).find(isPathLike);
  if (token === undefined) return undefined;
  let path = token.replace(/\\/g, '/').replace(/^["'`]|["'`]$/g, '');
  const absolute = path.startsWith('/') || path.startsWith('~') || /^[A-Za-z]:\//.test(path);
  if (absolute) {
    const root = project?.replace(/\\/g, '/').replace(/\/+$/, '');
    if (root !== undefined && root !== '' && path.startsWith(`${root}/`)) path = path.slice(root.length + 1);
    else {
      const name = path.slice(path.lastIndexOf('/') + 1);
      return name === '' ? undefined : `**/${name}`;
    }
  }
  path = path.replace(/^(\.\/)+/, '');
  if (path === '' || path.split('/').includes('..')) return undefined;
  return path;
}

/**
 * The command a trigger names, as the key its regex is anchored on (the executable, its
 * subcommand, a script after `run`) and the first flag it was written with. `program` (a block
 * whose tool is `cargo`) is put in front of a trigger that does not name it.
 */
export function triggerCommand(
  text: string,
  program: string | undefined,
): { key: string; flag: string | undefined } | undefined {
  let command = text;
  if (program !== undefined) {
    const words = text.split(/\s+/);
    const at = words.findIndex((word) => word.toLowerCase() === program.toLowerCase());
    command = at >= 0 ? words.slice(at).join(' ') : `${program} ${text}`;
  }
  const segment = segments(command).find((s) => segmentKey(s) !== undefined);
  const key = segment ? segmentKey(segment) : undefined;
  if (segment === undefined || key === undefined) return undefined;
  const exe = key[0] ?? '';
  if (PROSE_WORDS.has(exe.toLowerCase()) || !/^[\w./@+-]+$/.test(exe)) return undefined;
  const words = [...key];
  const start = segment.findIndex((token) => token.replace(/^["']|["']$/g, '').endsWith(exe));
  const rest = segment.slice(start + 1);
  const next = rest.find((token) => !token.startsWith('-') && token !== key[1]);
  if (words.length === 2 && RUNNERS.has(words[1] ?? '') && next !== undefined && /^[\w:.@-]+$/.test(next))
    words.push(next);
  const flag = rest.find((token) => /^-{1,2}[\w][\w-]*(=\S+)?$/.test(token) && token.length <= 40);
  return { key: words.join(' '), flag };
}

/** The triggers of a block, from its `tool:` and `trigger:` (see the file comment). */
export function blockTriggers(
  block: Pick<LessonBlock, 'tool' | 'trigger'>,
  project: string | undefined,
): BlockTriggers {
  const tool = blockTool(block);
  const kind = blockToolKind(tool);
  const text = triggerText(block.trigger);
  const none: BlockTriggers = { tools: [], commands: [], paths: [], key: undefined };
  if (text !== undefined) {
    // A file tool's trigger is a path; a shell's is a command unless it is a bare wildcard
    // pattern (`*.py`); with no tool, one path-like word is a path and anything else a command.
    const single = !/\s/.test(text);
    const pathFirst =
      kind === 'file' ||
      kind === 'agent' ||
      (single && /[*?{]/.test(text)) ||
      (kind === 'none' && single && isPathLike(text));
    const glob = pathFirst ? triggerGlob(text, project) : undefined;
    if (glob !== undefined) return { ...none, paths: [glob] };
    if (kind !== 'file' && kind !== 'agent') {
      const command = triggerCommand(text, kind === 'program' ? tool : undefined);
      if (command !== undefined) return commandTriggers(command);
    }
  }
  if (kind === 'program' && tool !== undefined) return commandTriggers({ key: tool, flag: undefined });
  return { ...none, tools: tool !== undefined ? [hookToolName(tool)] : [] };
}

function commandTriggers(command: { key: string; flag: string | undefined }): BlockTriggers {
  const diff = command.flag !== undefined ? { removed: [command.flag], added: [] } : undefined;
  return { tools: [], commands: [commandTrigger(command.key, diff)], paths: [], key: command.key };
}

/** Whether a heuristic find is about what the block says: its command, its path or its tool. */
export function blockFits(block: LessonBlock, episode: Episode): boolean {
  const tool = blockTool(block);
  const kind = blockToolKind(tool);
  const triggers = blockTriggers(block, episode.project);
  if (triggers.key !== undefined) {
    // The key alone: a block may name the fixed command (`cargo test --all`) as its trigger.
    const regex = new RegExp(commandTrigger(triggers.key, undefined));
    return episode.failures.some((attempt) => {
      const command = commandOf(attempt.call);
      return command !== undefined && regex.test(command);
    });
  }
  if (triggers.paths.length > 0) {
    const regexes = triggers.paths.map((glob) => new RegExp(compileGlob(glob)));
    const matches = (path: string) => {
      const relative = toRepoPath(path, episode.project);
      return relative !== undefined && regexes.some((regex) => regex.test(relative));
    };
    // A file tool's own path, or a path a failed command names (`pip install -r requirements.txt`).
    return episode.failures.some((attempt) => {
      const path = targetPath(attempt.call);
      if (path !== undefined) return matches(path);
      const command = commandOf(attempt.call);
      return command !== undefined && commandPaths(command).some(matches);
    });
  }
  if (tool === undefined) return true;
  return episode.failures.some((attempt) =>
    kind === 'shell'
      ? isShellTool(attempt.call.tool)
      : attempt.call.tool.toLowerCase() === tool.toLowerCase(),
  );
}

/** The words of a command that could be paths: not flags, operators or assignments. */
function commandPaths(command: string): string[] {
  return tokenize(command)
    .map((token) => stripQuotes(token).replace(/^--?[\w-]+=/, ''))
    .filter((token) => token !== '' && !/^[-;&|<>()]/.test(token) && !/^[A-Za-z_]\w*=/.test(token));
}

/** Transcript lines a block may follow the last line of its failure by (a reply or two). */
export const BLOCK_GAP_LINES = 60;

function lastLine(episode: Episode): number {
  return Math.max(0, ...episode.evidence.map((ref) => ref.line));
}

function firstLine(episode: Episode): number {
  return Math.min(...episode.evidence.map((ref) => ref.line));
}

/**
 * Each `#lesson` block joined with the heuristic find of the same episode: a failure in the same
 * transcript, before the block and at most BLOCK_GAP_LINES lines before it, that the block fits
 * (the nearest one). The joined episode keeps the block (its words, tier 1) and the failure, fix
 * and evidence of both; a block without such a find stays as it is.
 */
export function joinLessonBlocks(episodes: readonly Episode[]): Episode[] {
  const out = [...episodes];
  const taken = new Set<Episode>();
  for (const blockEpisode of episodes) {
    const block = blockEpisode.block;
    const ref = blockEpisode.evidence[0];
    if (blockEpisode.kind !== 'lesson-block' || block === undefined || ref === undefined) continue;
    if (blockEpisode.failures.length > 0) continue;
    let best: Episode | undefined;
    for (const found of episodes) {
      if (found.kind === 'lesson-block' || found.failures.length === 0 || taken.has(found)) continue;
      if (found.session !== blockEpisode.session || found.evidence[0]?.file !== ref.file) continue;
      const gap = ref.line - lastLine(found);
      if (firstLine(found) >= ref.line || gap > BLOCK_GAP_LINES || !blockFits(block, found)) continue;
      if (best === undefined || Math.max(0, gap) < Math.max(0, ref.line - lastLine(best))) best = found;
    }
    if (best === undefined) continue;
    taken.add(best);
    const joined = joinEpisode(blockEpisode, best, ref);
    out[out.indexOf(best)] = joined;
    out.splice(out.indexOf(blockEpisode), 1);
  }
  return out;
}

/** A block and the heuristic find of its episode, as one episode. */
export function joinEpisode(blockEpisode: Episode, found: Episode, blockRef: EvidenceRef): Episode {
  return {
    ...found,
    kind: 'lesson-block',
    tier: 1,
    // The block's tool, as when the block stands alone: the same block hashes the same.
    tool: blockEpisode.tool ?? found.tool,
    block: blockEpisode.block,
    signals: mergeSignals(found.signals, blockEpisode.signals),
    evidence: dedupeEvidence([...found.evidence, ...blockEpisode.evidence]),
    joined: { heuristic: found, blockRef },
  };
}
