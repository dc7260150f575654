/**
 * The `lore` entry point: finds the verb, loads only its module, runs it, prints data or text,
 * and decides the exit code: 0 ok, 1 user or data error, 2 usage, 70 internal error.
 */
import { readFileSync } from 'node:fs';
import { EXIT, runCommand } from './run-command.js';
import type { Io, VerbEntry } from './run-command.js';
import { FAST_VERBS } from './fast-cli.js';

export { EXIT } from './run-command.js';
export type { Io } from './run-command.js';

type Entry = VerbEntry;

/**
 * Every verb, in the order `lore --help` lists them. Modules load on use. The fast ones
 * (fast-cli.ts) usually run from their CommonJS bundle instead (bin.ts), and from here when it is
 * missing.
 */
export const COMMANDS: Record<string, Entry> = {
  up: {
    summary: "scan this machine's agent transcripts and open the dashboard",
    load: () => import('./commands/up.js'),
  },
  demo: {
    summary: 'try lore on a throw-away repository with real-world lessons',
    load: () => import('./commands/demo.js'),
  },
  init: {
    summary: 'create .lore/ in this repository (idempotent)',
    load: () => import('./commands/init.js'),
  },
  add: { summary: 'add a lesson and print its id', load: () => import('./commands/add.js') },
  list: FAST_VERBS.list,
  search: FAST_VERBS.search,
  show: FAST_VERBS.show,
  docs: {
    summary: 'project Markdown docs: list, show, add a root, index bodies, migrate frontmatter',
    load: () => import('./commands/docs.js'),
  },
  update: { summary: 'change fields of a lesson', load: () => import('./commands/update.js') },
  supersede: {
    summary: 'replace a lesson by a newer one (both change together)',
    load: () => import('./commands/supersede.js'),
  },
  archive: {
    summary: 'retire a lesson (kept in git, never injected)',
    load: () => import('./commands/archive.js'),
  },
  unarchive: {
    summary: 'make an archived lesson active again',
    load: () => import('./commands/unarchive.js'),
  },
  upvote: {
    summary: 'record that a lesson helped (once per model and task)',
    load: () => import('./commands/upvote.js'),
  },
  feedback: {
    summary: 'record whether a lesson helped (moves its confidence)',
    load: () => import('./commands/feedback.js'),
  },
  injections: {
    summary: 'which lessons were shown to which task, by which channel, with their feedback',
    load: () => import('./commands/injections.js'),
  },
  promote: {
    summary: "widen a lesson's reach: project -> user -> universal (moves it between tiers)",
    load: () => import('./commands/promote.js'),
  },
  demote: {
    summary: "narrow a lesson's reach: universal -> user -> project (moves it between tiers)",
    load: () => import('./commands/demote.js'),
  },
  relevant: {
    summary: 'the lessons that matter here: stack and operation filters, most severe first (at most 10)',
    load: () => import('./commands/relevant.js'),
  },
  prune: {
    summary: 'report stale and old lessons; --archive archives them (never deletes)',
    load: () => import('./commands/prune.js'),
  },
  dedupe: {
    summary: 'list likely duplicate lessons',
    load: () => import('./commands/dedupe.js'),
  },
  sync: FAST_VERBS.sync,
  maintain: {
    summary: 'periodic upkeep: lower the confidence of lessons unused for 30 days',
    load: () => import('./commands/maintain.js'),
  },
  check: {
    summary: 'validate every lesson file; exit 1 on any error',
    load: () => import('./commands/check.js'),
  },
  export: {
    summary: "write lessons as lore's JSON or another tool's format (--to)",
    load: () => import('./commands/export.js'),
  },
  import: {
    summary: "add lessons from lore's JSON, Orbit, lessons-learned, ADD, COIA or Cursor rules",
    load: () => import('./commands/import.js'),
  },
  scan: {
    summary: 'mine agent transcripts for mistakes and #lesson blocks (new bytes only)',
    load: () => import('./commands/scan.js'),
  },
  protocol: {
    summary: 'how often agents follow the #lesson protocol: blocks per session, malformed blocks',
    load: () => import('./commands/protocol.js'),
  },
  replay: {
    summary: 'replay transcripts through the hook: per lesson, fires, hits, misses, noise, what it prevented',
    load: () => import('./commands/replay.js'),
  },
  candidates: {
    summary: 'list, show, approve or reject lesson candidates found by scan',
    load: () => import('./commands/candidates.js'),
  },
  review: { summary: 'review lesson candidates interactively', load: () => import('./commands/review.js') },
  distill: {
    summary: 'rewrite lesson candidates with a model you configure (opt-in, budgeted, cached)',
    load: () => import('./commands/distill.js'),
  },
  prompt: {
    summary: "print a task's pre-prompt: the top lessons for its files, tags and text",
    load: () => import('./commands/prompt.js'),
  },
  explain: {
    summary: 'dry-run the hook for a call: which lessons it would inject or deny, and why',
    load: () => import('./commands/explain.js'),
  },
  disable: {
    summary: 'turn the agent hooks off in this project (this machine)',
    load: () => import('./commands/disable.js'),
  },
  enable: {
    summary: 'turn the agent hooks back on in this project',
    load: () => import('./commands/enable.js'),
  },
  install: {
    summary: "add lore's hooks to Claude Code, Codex, Gemini CLI or Cursor settings (idempotent)",
    load: () => import('./commands/install.js'),
  },
  uninstall: {
    summary: "remove lore's hooks from Claude Code, Codex, Gemini CLI or Cursor settings",
    load: () => import('./commands/uninstall.js'),
  },
  serve: {
    summary: 'serve the HTTP API and the dashboard (loopback; a token elsewhere)',
    load: () => import('./commands/serve.js'),
  },
  org: {
    summary: 'organisation tokens, on the server side: org token create USER --role R | revoke USER',
    load: () => import('./commands/org.js'),
  },
  remote: {
    summary: 'the organisation servers this machine pulls from and pushes to: add, list, remove',
    load: () => import('./commands/remote.js'),
  },
  login: {
    summary: "store an organisation remote's token (mode 0600), checked with the server",
    load: () => import('./commands/login.js'),
  },
  push: {
    summary: 'send user lessons (project ones with --from-project) to the organisation server',
    load: () => import('./commands/push.js'),
  },
  pull: {
    summary: "bring the organisation's lessons down into the read-only org tier (works offline after)",
    load: () => import('./commands/pull.js'),
  },
  render: {
    summary: 'write LEARNINGS.md and the managed lesson section of AGENTS.md / CLAUDE.md / GEMINI.md',
    load: () => import('./commands/render.js'),
  },
  aggregate: {
    summary: 'write one agent skill per tool with many lessons (the hook points at it)',
    load: () => import('./commands/aggregate.js'),
  },
  mcp: FAST_VERBS.mcp,
  'migrate-layout': {
    summary: 'move lessons/<id>.yaml files into lessons/<id>/lesson.yaml',
    load: () => import('./commands/migrate-layout.js'),
  },
};

function version(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    return pkg.version;
  } catch {
    return 'unknown';
  }
}

function mainHelp(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((verb) => verb.length));
  const verbs = Object.entries(COMMANDS).map(([verb, entry]) => `  ${verb.padEnd(width)}  ${entry.summary}`);
  return [
    "lore: a memory for your coding agents' mistakes",
    '',
    'usage: lore <command> [options]',
    '',
    'commands:',
    ...verbs,
    '',
    'Every command takes --help; read commands take --json.',
    'Global options: --root DIR (repository root holding .lore/).',
    'Environment: LORE_HOME (user tier, default ~/.lore), LORE_VOTE_HALF_LIFE_DAYS, LORE_AUTHOR, LORE_DEBUG, LORE_DISABLED, LORE_TOKEN, LORE_SESSION_ID, LORE_ORG_DB, LORE_PULL_INTERVAL_MINUTES.',
    '',
  ].join('\n');
}

export async function runCli(io: Io): Promise<number> {
  const [verb, ...rest] = io.argv;
  if (verb === undefined || verb === '--help' || verb === '-h' || verb === 'help') {
    const topic = verb === 'help' ? rest[0] : undefined;
    if (topic === undefined) {
      io.stdout(mainHelp());
      return verb === undefined ? EXIT.usage : EXIT.ok;
    }
    return runCli({ ...io, argv: [topic, '--help'] });
  }
  if (verb === '--version' || verb === '-v') {
    io.stdout(`${version()}\n`);
    return EXIT.ok;
  }
  const entry = Object.hasOwn(COMMANDS, verb) ? COMMANDS[verb] : undefined;
  if (!entry) {
    const near = Object.keys(COMMANDS).filter((name) => name.startsWith(verb.slice(0, 2)));
    io.stderr(
      `lore: unknown command "${verb}"${near.length > 0 ? `; did you mean ${near.join(' or ')}?` : ''}\n`,
    );
    io.stderr('run `lore --help` for the list of commands\n');
    return EXIT.usage;
  }

  return runCommand(io, verb, entry, rest, runCli);
}
