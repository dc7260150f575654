/**
 * An episode (already redacted) to a candidate draft: triggers (tools, a command regex anchored on
 * the executable and the argument that made the difference, with a negative lookahead for the
 * visible fix, path globs), a summary that can be injected as it is, a body with the details,
 * tags (`lang:`, `tool:`, `topic:`, `env:`, `severity:`) and a content hash that is the same for
 * every repeat of the same pattern, so repeats merge instead of piling up.
 */
import type { Category, LessonSeverity } from '../lesson/schema.js';
import { SUMMARY_MAX } from '../lesson/schema.js';
import { isShellTool } from './classify-result.js';
import { classifyScope } from './classify-scope.js';
import type { ScopeDecision } from './classify-scope.js';
import { commandOf, targetOf } from './detect-episodes.js';
import type { Episode, EpisodeKind, EpisodeSignals, EvidenceRef } from './episode.js';
import type { ToolCall } from './events.js';
import { contentHash } from './hash.js';
import { commandKeys, commandTrigger, diffCommands } from './shell-command.js';

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
};

// eslint-disable-next-line no-control-regex -- stripping ANSI escapes
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]|\u001b\][^\u0007]*\u0007/g;

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** The line of an error that says what happened. */
export function errorGist(text: string): string {
  const lines = text
    .replace(ANSI, '')
    .replace(/<\/?tool_use_error>/g, '')
    .split('\n')
    .map((line) => line.trim())
    .filter(
      (line) =>
        line !== '' &&
        !/^(Exit code \d+|Error: Exit code \d+|Output:|Wall time:|Chunk ID:|Process Group PGID)/i.test(line),
    );
  const telling = lines.find((line) =>
    /error|failed|not found|cannot|can't|denied|invalid|no such|unknown|missing|refused|timed out|unexpected|exception/i.test(
      line,
    ),
  );
  return oneLine(telling ?? lines[0] ?? 'failed without output', 160);
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

function shortCommand(command: string): string {
  return oneLine(command, 120);
}

const LANG_BY_EXT: Record<string, string> = {
  py: 'python',
  ts: 'typescript',
  tsx: 'typescript',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  go: 'go',
  rs: 'rust',
  rb: 'ruby',
  java: 'java',
  kt: 'kotlin',
  cs: 'csharp',
  php: 'php',
  swift: 'swift',
  sh: 'shell',
  ps1: 'powershell',
  c: 'c',
  cpp: 'cpp',
  md: 'markdown',
  css: 'css',
  html: 'html',
  json: 'json',
  yaml: 'yaml',
  yml: 'yaml',
  toml: 'toml',
};

const LANG_BY_EXE: Record<string, string> = {
  python: 'python',
  python3: 'python',
  pytest: 'python',
  pip: 'python',
  pip3: 'python',
  uv: 'python',
  poetry: 'python',
  node: 'javascript',
  npm: 'javascript',
  npx: 'javascript',
  pnpm: 'javascript',
  yarn: 'javascript',
  bun: 'javascript',
  tsc: 'typescript',
  go: 'go',
  cargo: 'rust',
  rustc: 'rust',
  ruby: 'ruby',
  bundle: 'ruby',
  dotnet: 'csharp',
  powershell: 'powershell',
  pwsh: 'powershell',
};

function tagSafe(value: string): string {
  return value
    .toLowerCase()
    .replace(/[^a-z0-9._/+-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
}

function pathOf(call: ToolCall | undefined): string | undefined {
  if (!call) return undefined;
  const key = targetOf(call);
  const first = key.keys[0];
  return key.family === 'shell' || first === undefined || first === '?' || first === call.tool.toLowerCase()
    ? undefined
    : first;
}

/** A repository-relative glob for a file, or `**\/*.ext` when it lies outside the project. */
export function pathGlob(path: string, project: string | undefined): string | undefined {
  const normal = path.replace(/\\/g, '/');
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

function topicOf(episode: Episode, errorText: string): string | undefined {
  const failure = episode.failures[0]?.result.failure;
  if (failure === 'interactive-prompt') return 'interactive-prompt';
  if (failure === 'timeout' || episode.kind === 'timeout') return 'timeout';
  if (failure === 'tool-use-error') return 'tool-usage';
  if (/permission denied|eacces|eperm/i.test(errorText)) return 'permissions';
  if (/command not found|not recognized as|no such file or directory.*(bin|exe)/i.test(errorText))
    return 'missing-command';
  if (/module ?not ?found|cannot find module|no module named|importerror/i.test(errorText))
    return 'dependencies';
  if (/no such file|enoent|does not exist|not found/i.test(errorText)) return 'paths';
  if (/syntax ?error|unexpected token|parse error/i.test(errorText)) return 'syntax';
  if (episode.kind === 'user-correction') return 'user-correction';
  return undefined;
}

export function draftCandidate(episode: Episode): CandidateDraft {
  const first = episode.failures[0];
  const last = episode.failures[episode.failures.length - 1];
  const call = first?.call;
  const tool = episode.tool ?? call?.tool;
  const shell = isShellTool(tool);
  const failedCommand = call ? commandOf(call) : undefined;
  const fixCommand = episode.fix ? commandOf(episode.fix) : undefined;
  const errorText = last?.result.text ?? '';
  const gist = first ? errorGist(errorText) : '';
  const key =
    failedCommand !== undefined
      ? (commandKeys(failedCommand)[0] ?? failedCommand.split(/\s+/)[0] ?? '')
      : undefined;
  const path = pathOf(call);
  const glob = path === undefined ? undefined : pathGlob(path, episode.project);
  const harness = first?.result.failure === 'tool-use-error';

  const commands: string[] = [];
  if (shell && key !== undefined && key !== '') {
    const diff =
      fixCommand !== undefined && failedCommand !== undefined
        ? diffCommands(failedCommand, fixCommand)
        : undefined;
    commands.push(commandTrigger(key, diff));
  }
  const paths = glob !== undefined && !harness && !shell ? [glob] : [];
  const tools = tool !== undefined ? [tool] : [];

  let summary: string;
  let mistake: string | undefined;
  let remediation: string | undefined;
  const subject = shell && key ? `\`${key}\`` : (tool ?? 'a tool call');
  switch (episode.kind) {
    case 'lesson-block': {
      const block = episode.block;
      mistake = block?.mistake;
      remediation = block?.fix;
      const trigger = block?.trigger ? `${block.trigger}: ` : '';
      summary = `${trigger}${mistake ?? ''}${mistake && remediation ? ' → ' : ''}${remediation ?? ''}`;
      break;
    }
    case 'error-fix': {
      mistake =
        failedCommand !== undefined
          ? `\`${shortCommand(failedCommand)}\` failed: ${gist}`
          : `${tool} failed: ${gist}`;
      if (episode.enabler && !(fixCommand !== undefined && fixCommand !== failedCommand)) {
        const target = pathOf(episode.enabler);
        const enablerCommand = commandOf(episode.enabler);
        remediation = `run ${enablerCommand !== undefined ? `\`${shortCommand(enablerCommand)}\`` : `${episode.enabler.tool}${target ? ' on the file' : ''}`} first, then retry`;
      } else if (fixCommand !== undefined) remediation = `what worked: \`${shortCommand(fixCommand)}\``;
      else
        remediation = `what worked: ${tool} with different input${episode.fix ? ` (${oneLine(describeInput(episode.fix), 100)})` : ''}`;
      summary = `${subject} failed (${gist}); ${remediation}`;
      break;
    }
    case 'user-correction':
      mistake = `the user corrected ${call ? `${tool}${failedCommand ? ` \`${shortCommand(failedCommand)}\`` : ''}` : 'the agent'}`;
      remediation = `the user said: "${oneLine(episode.userText ?? '', 160)}"`;
      summary = `User correction${call ? ` after ${tool}${key ? ` \`${key}\`` : ''}` : ''}: "${oneLine(episode.userText ?? '', 180)}"`;
      break;
    case 'retry-loop':
      mistake = `${subject} failed ${episode.failures.length} times in a row: ${gist}`;
      summary = `${subject} keeps failing (${episode.failures.length} attempts): ${gist}${episode.diagnosis ? ` — ${episode.diagnosis}` : ''}`;
      break;
    case 'timeout':
      mistake = `${subject} ${first?.result.failure === 'interactive-prompt' ? 'stalls on an interactive prompt' : 'hangs until it times out'}: ${gist}`;
      remediation =
        episode.fix && fixCommand
          ? `what worked: \`${shortCommand(fixCommand)}\``
          : 'run it non-interactively (pass every option, --yes, CI=1) or with a timeout';
      summary = `${mistake}; ${remediation}`;
      break;
    case 'self-diagnosis':
      mistake = `${subject} failed: ${gist}`;
      remediation = episode.diagnosis;
      summary = `${subject} failed (${gist}): ${episode.diagnosis ?? ''}`;
      break;
  }
  if (episode.userText !== undefined && episode.kind !== 'user-correction') {
    summary += ` (user: "${oneLine(episode.userText, 80)}")`;
  }
  summary = oneLine(summary, SUMMARY_MAX);
  if (summary === '') summary = 'Lesson captured from a transcript';

  const signals = episode.signals;
  const severity: LessonSeverity = signals.dataLoss
    ? 'high'
    : signals.hang || signals.userCorrection
      ? 'medium'
      : episode.kind === 'self-diagnosis'
        ? 'low'
        : 'medium';
  const exe = key?.split(' ')[0];
  const lang =
    (exe !== undefined ? LANG_BY_EXE[exe] : undefined) ??
    (path !== undefined ? LANG_BY_EXT[/\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase() ?? ''] : undefined);
  const topic = topicOf(episode, errorText);
  const tags = [
    ...(lang ? [`lang:${lang}`] : []),
    ...(exe ? [`tool:${tagSafe(exe)}`] : tool ? [`tool:${tagSafe(tool)}`] : []),
    ...(topic ? [`topic:${topic}`] : []),
    `env:${episode.agent}`,
    ...(/[A-Za-z]:\\|powershell|pwsh/i.test(`${failedCommand ?? ''} ${path ?? ''}`) ? ['env:windows'] : []),
    `severity:${severity}`,
    ...(episode.block?.tags ?? []).map((tag) => tagSafe(tag)).filter((tag) => tag !== ''),
  ];

  const hashKey =
    episode.kind === 'lesson-block'
      ? `block|${(tool ?? '').toLowerCase()}|${normalize(mistake ?? '')}|${normalize(remediation ?? '')}`
      : episode.kind === 'user-correction'
        ? `correction|${(tool ?? '').toLowerCase()}|${key ?? ''}|${normalize(episode.userText ?? '')}`
        : `${shell ? 'shell' : (tool ?? '').toLowerCase()}|${key ?? (harness ? '' : (glob ?? ''))}|${normalize(gist)}`;

  const body = [
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

  const anchorRef = episode.evidence[0] ?? { file: '?', line: 0 };
  const trigger = commands[0] ?? paths[0] ?? episode.block?.trigger ?? tool ?? '';
  const category: Category =
    topic === 'tool-usage' || topic === 'missing-command' || topic === 'interactive-prompt'
      ? 'tooling'
      : episode.kind === 'user-correction'
        ? 'collaboration'
        : 'technical';
  const cleanTags = [...new Set(tags)].filter((tag) => /^[^\s,]+$/.test(tag) && tag.length <= 80);
  const scope = classifyScope({
    summary,
    mistake,
    remediation,
    command:
      failedCommand ?? (episode.block?.trigger !== undefined && shell ? episode.block.trigger : undefined),
    paths,
    tags: cleanTags,
    category,
  });
  return {
    contentHash: contentHash(hashKey),
    kind: episode.kind,
    tier: episode.tier,
    tool,
    trigger,
    summary,
    body,
    mistake: mistake === undefined ? undefined : oneLine(mistake, 1000),
    remediation: remediation === undefined ? undefined : oneLine(remediation, 1000),
    tools,
    commands,
    paths,
    tags: cleanTags,
    category,
    severity,
    scope,
    signals,
    session: episode.session,
    project: episode.project,
    agent: episode.agent,
    evidence: episode.evidence,
    anchor: `${anchorRef.file}:${anchorRef.line}`,
  };
}

function describeInput(call: ToolCall): string {
  const path = pathOf(call);
  if (path !== undefined) return path;
  const command = commandOf(call);
  if (command !== undefined) return command;
  return JSON.stringify(call.input).slice(0, 200);
}
