// The hook per agent host (`node bench/run.mjs --only hosts`, also part of `npm run bench`): the
// whole-process time of plugin/bin/lore-hook.cjs on a Gemini CLI BeforeTool and AfterTool payload, a
// Cursor postToolUse payload, and the answers after a call ran (Claude Code PostToolUseFailure, Codex
// PostToolUse, where lessons that wait for their error speak), beside the Claude Code PreToolUse
// figure and a bare `node -e ''`,
// all interleaved in the same run over the same 1,000-lesson store. Payloads are the recorded
// (Claude Code 2.1.330, Gemini CLI 0.61.0) and documented (Cursor) ones in test/fixtures, with the
// command and repository swapped in; the AfterTool and postToolUse ones carry a 4 KB tool output,
// as a test run's would. Target: each host's median within 5% of Claude Code's. One more row, outside
// the target, times an AfterTool whose output (1.5 MB) is near the hook's 2 MB stdin limit.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureStore } from './generate.mjs';
import { rebuildManifestFromFiles } from '../dist/store/manifest/manifest-build.js';
import { summarize as stats } from './stats.mjs';

const hookBundle = fileURLToPath(new URL('../plugin/bin/lore-hook.cjs', import.meta.url));
const fixtures = fileURLToPath(new URL('../test/fixtures/hook-payloads/', import.meta.url));

const COMMANDS = [
  'pytest -v tests/unit/test_api.py',
  'git status --short',
  'npm install --save-dev vitest',
  'docker build -t app:dev .',
  'cargo test --release',
  'make build',
  'go test ./...',
  'rm -rf node_modules && npm ci',
];
const HUGE = 'x'.repeat(1_500_000);
/** The last line of a failed call's result: errors the generated store's waiting lessons know, and one they do not. */
const ERROR_LINES = [
  "ls: cannot access 'build': No such file or directory",
  'bash: pytest: command not found',
  'Error: something else went wrong',
];
const OUTPUT =
  `${'collected 12 items\ntests/unit/test_api.py::test_ok PASSED\n'.repeat(60)}12 passed in 0.41s\n`.slice(
    0,
    4096,
  );

/** The first recorded payload of `event` in a fixture file (`{ev, stdin}` records or bare objects). */
function recorded(file, event) {
  for (const line of readFileSync(join(fixtures, file), 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const record = JSON.parse(line);
    const stdin = record.stdin ?? record;
    if (stdin.hook_event_name === event) return stdin;
  }
  throw new Error(`no ${event} payload in ${file}`);
}

const CLAUDE = recorded('cc-hooks-deny.jsonl', 'PreToolUse');
const GEMINI_BEFORE = recorded('gemini-hooks.jsonl', 'BeforeTool');
const GEMINI_AFTER = recorded('gemini-hooks.jsonl', 'AfterTool');
const CURSOR_POST = recorded('cursor-documented.jsonl', 'postToolUse');
const CLAUDE_FAILURE = recorded('cc-post.jsonl', 'PostToolUseFailure');
const CODEX_POST = recorded('codex-hooks.jsonl', 'PostToolUse');

/** Each host's payload for the i-th call in `root`, in session `session`. */
export function hostPayloads(root, i, run) {
  const command = COMMANDS[i % COMMANDS.length];
  // each host its own session: a lesson one host's call claimed would be already-shown to the next
  const session = (host) => `${run}-${host}`;
  return {
    'claude-code PreToolUse': {
      args: [],
      stdin: {
        ...CLAUDE,
        session_id: session('claude'),
        cwd: root,
        tool_input: { command, description: 'x' },
      },
    },
    // the answer after a call ran (lessons that wait for their error), with a 4 KB result
    'claude-code PostToolUseFailure': {
      args: [],
      stdin: {
        ...CLAUDE_FAILURE,
        session_id: session('claude-failure'),
        cwd: root,
        tool_name: 'Bash',
        tool_input: { command, description: 'x' },
        error: `Exit code 1\n${OUTPUT}\n${ERROR_LINES[i % ERROR_LINES.length]}`,
      },
    },
    'codex PostToolUse': {
      args: ['--host', 'codex'],
      stdin: {
        ...CODEX_POST,
        session_id: session('codex-post'),
        cwd: root,
        tool_input: { command },
        tool_response: `${OUTPUT}\n${ERROR_LINES[i % ERROR_LINES.length]}`,
      },
    },
    'gemini BeforeTool': {
      args: ['--host', 'gemini'],
      stdin: {
        ...GEMINI_BEFORE,
        session_id: session('gemini-before'),
        cwd: root,
        tool_input: { command, description: 'x' },
      },
    },
    'gemini AfterTool': {
      args: ['--host', 'gemini'],
      stdin: {
        ...GEMINI_AFTER,
        session_id: session('gemini-after'),
        cwd: root,
        tool_input: { command, description: 'x' },
        tool_response: {
          llmContent: `<untrusted_context>\nOutput: ${OUTPUT}</untrusted_context>`,
          returnDisplay: OUTPUT,
        },
      },
    },
    // bad input the hook must still answer fast: a tool output near the 2 MB stdin limit
    'gemini AfterTool, 1.5 MB output': {
      args: ['--host', 'gemini'],
      stdin: {
        ...GEMINI_AFTER,
        session_id: session('gemini-big'),
        cwd: root,
        tool_input: { command, description: 'x' },
        tool_response: { llmContent: HUGE, returnDisplay: '' },
      },
    },
    'cursor postToolUse': {
      args: ['--host', 'cursor'],
      stdin: {
        ...CURSOR_POST,
        conversation_id: session('cursor'),
        workspace_roots: [root],
        cwd: root,
        tool_input: { command, working_directory: root },
        tool_output: JSON.stringify({ exitCode: 0, stdout: OUTPUT }),
      },
    },
  };
}

function timed(args, input, env) {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { input, env, encoding: 'utf8' });
  const wall = performance.now() - started;
  if (result.status !== 0)
    throw new Error(`node ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return { wall, stdout: result.stdout };
}

const ms = (v) => `${v.toFixed(1)} ms`;

export async function runHostsBench({ dataDir, size = 1000, runs = 200, log = console.log }) {
  const loreHome = join(dataDir, 'hosts-home', '.lore');
  const tmp = join(dataDir, 'hosts-tmp');
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  mkdirSync(loreHome, { recursive: true });
  const env = { ...process.env, LORE_HOME: loreHome, TMPDIR: tmp, NO_COLOR: '1', NODE_EXTRA_CA_CERTS: '' };
  for (const name of ['NODE_OPTIONS', 'LORE_DEBUG', 'LORE_DISABLED', 'GEMINI_SESSION_ID']) delete env[name];
  const store = ensureStore(dataDir, size, (line) => log(`  ${line}`));
  rebuildManifestFromFiles({ start: store.root, env, nowMs: Date.now() });
  log(
    `\n== hook per host (plugin/bin/lore-hook.cjs), ${size.toLocaleString('en-US')} lessons, ${runs} interleaved runs each`,
  );

  const times = { "node -e ''": [] };
  const answered = {};
  for (let i = 0; i < runs; i += 1) {
    times["node -e ''"].push(timed(['-e', ''], '', env).wall);
    // the hosts take turns going first: no host always runs right after the baseline
    const entries = Object.entries(hostPayloads(store.root, i, `hosts-${i}`));
    const rotated = [...entries.slice(i % entries.length), ...entries.slice(0, i % entries.length)];
    for (const [name, { args, stdin }] of rotated) {
      const run = timed([hookBundle, ...args], JSON.stringify(stdin), env);
      (times[name] ??= []).push(run.wall);
      if (run.stdout.trim() !== '{}') answered[name] = (answered[name] ?? 0) + 1;
    }
  }
  const summary = Object.fromEntries(Object.entries(times).map(([name, list]) => [name, stats(list)]));
  const base = summary["node -e ''"].p50;
  const claude = summary['claude-code PreToolUse'].p50;
  const rows = [['', 'p50', 'p99', 'p50 / base', 'p50 / Claude Code', 'answered']];
  for (const [name, s] of Object.entries(summary)) {
    rows.push([
      name,
      ms(s.p50),
      ms(s.p99),
      `${(s.p50 / base).toFixed(2)}x`,
      name === "node -e ''" ? '' : `${(s.p50 / claude).toFixed(3)}x`,
      name === "node -e ''" ? '' : `${answered[name] ?? 0}/${runs}`,
    ]);
  }
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => String(row[c]).length)));
  log(rows.map((row) => `    ${row.map((cell, c) => String(cell).padEnd(widths[c])).join('  ')}`).join('\n'));
  const targets = Object.keys(summary)
    .filter((name) => name !== "node -e ''" && name !== 'claude-code PreToolUse' && !name.includes('MB'))
    .map((name) => {
      const value = summary[name].p50 / claude;
      return {
        name: `${name} p50 / Claude Code p50`,
        value,
        limit: 1.05,
        verdict: value <= 1.05 ? 'PASS' : 'MISS',
      };
    });
  log("\n  host targets: each median within 5% of Claude Code's");
  for (const t of targets) log(`    ${t.name}: ${t.value.toFixed(3)}x (<= ${t.limit}x) ${t.verdict}`);
  // a background manifest check may still be writing in tmp: retry instead of failing the run
  rmSync(tmp, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  const results = { size, runs, summary, answered, targets };
  writeFileSync(
    join(dataDir, 'hosts-last-run.json'),
    `${JSON.stringify({ date: new Date().toISOString(), ...results }, null, 2)}\n`,
  );
  return results;
}
