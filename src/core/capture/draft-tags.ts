/**
 * How a candidate draft is classified: its topic, severity and category, and its tags (`lang:`,
 * `tool:`, `topic:`, `env:`, `severity:`, plus the agent's own from a #lesson block).
 */
import type { Category, LessonSeverity } from '../lesson/schema.js';
import { LessonSchema } from '../lesson/schema.js';
import type { Episode, EpisodeKind } from './episode.js';

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

export type BlockTags = { tags: string[]; dropped: { tag: string; reason: string }[] };

/**
 * The block's tags as written (`lang:rust` stays `lang:rust`), each checked against the lesson
 * schema's tag rule; the ones it refuses are dropped, with the reason, for the candidate's body.
 */
export function blockTags(tags: readonly string[]): BlockTags {
  const out: BlockTags = { tags: [], dropped: [] };
  for (const raw of tags) {
    const tag = raw.trim();
    if (tag === '') continue;
    const parsed = LessonSchema.shape.tags.safeParse([tag]);
    if (parsed.success) {
      if (!out.tags.includes(tag)) out.tags.push(tag);
    } else out.dropped.push({ tag, reason: parsed.error.issues[0]?.message ?? 'not a valid tag' });
  }
  return out;
}

export function tagSafe(value: string): string {
  return value
    .toLowerCase()
    .replace(/[^a-z0-9._/+-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
}

/** The language of the executable run, else of the file's extension. */
export function languageOf(exe: string | undefined, path: string | undefined): string | undefined {
  return (
    (exe !== undefined ? LANG_BY_EXE[exe] : undefined) ??
    (path !== undefined ? LANG_BY_EXT[/\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase() ?? ''] : undefined)
  );
}

/** What kind of trouble it was, from the failure signal, the episode kind and the error text. */
export function topicOf(episode: Episode, errorText: string): string | undefined {
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

export function severityOf(episode: Episode): LessonSeverity {
  const signals = episode.signals;
  return signals.dataLoss
    ? 'high'
    : signals.hang || signals.userCorrection
      ? 'medium'
      : episode.kind === 'self-diagnosis'
        ? 'low'
        : 'medium';
}

export function categoryOf(kind: EpisodeKind, topic: string | undefined): Category {
  return topic === 'tool-usage' || topic === 'missing-command' || topic === 'interactive-prompt'
    ? 'tooling'
    : kind === 'user-correction'
      ? 'collaboration'
      : 'technical';
}

export type TagFacts = {
  /** The failed command's key (`git push`), when a command failed. */
  key: string | undefined;
  tool: string | undefined;
  failedCommand: string | undefined;
  path: string | undefined;
  topic: string | undefined;
  severity: LessonSeverity;
};

/**
 * The draft's tags, each once, without whitespace or commas and at most 80 characters. The
 * agent's own from a #lesson block are kept as written (`lang:rust`), if the schema takes them.
 */
export function draftTags(episode: Episode, facts: TagFacts): string[] {
  const { key, failedCommand, path, topic, severity } = facts;
  const exe = key?.split(' ')[0];
  const lang = languageOf(exe, path);
  const tags = [
    ...(lang ? [`lang:${lang}`] : []),
    // `tool:` names the program a command ran; the agent's own tool (Edit, Task) is the lesson's
    // `tools` already, and as a tag it would key the lesson on that word in commands: never fired.
    ...(exe ? [`tool:${tagSafe(exe)}`] : []),
    ...(topic ? [`topic:${topic}`] : []),
    `env:${episode.agent}`,
    ...(/[A-Za-z]:\\|powershell|pwsh/i.test(`${failedCommand ?? ''} ${path ?? ''}`) ? ['env:windows'] : []),
    `severity:${severity}`,
    ...blockTags(episode.block?.tags ?? []).tags,
  ];
  return [...new Set(tags)].filter((tag) => /^[^\s,]+$/.test(tag) && tag.length <= 80);
}
