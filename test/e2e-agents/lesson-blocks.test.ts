// The agent writes a `#lesson` block after a failed command, then runs the fixed one (the real
// Claude Code and Codex, driven offline by the scripted model). `lore scan` of the transcript the
// agent wrote gives exactly one candidate (the block and the heuristic find of the same failure
// are one), and once approved it fires on the block's own trigger.
//
// LORE_RECORD_FIXTURES=1 also copies each transcript into test/fixtures/transcripts/ (the temp
// paths renamed to /home/dev, as the other recorded fixtures): that is how the `#lesson` block
// fixtures were recorded (see the SOURCES.md beside them).
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { codexEnv, createWorkspace, PLUGIN_DIR, runClaude, runCodex } from './harness.js';
import type { Workspace } from './harness.js';
import { startModelServer } from './model-server.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/transcripts/', import.meta.url));

/** A fake `cargo`: `cargo test` at this workspace root fails, `--workspace` / `--all` passes. */
const CARGO = `#!/bin/sh
case " $* " in
  *" --workspace "*|*" --all "*) echo "running 3 tests"; echo "test result: ok. 3 passed; 0 failed"; exit 0;;
esac
echo "error: manifest path \\\`$PWD/Cargo.toml\\\` is a virtual manifest, but this command requires running against an actual package in this workspace" >&2
exit 101
`;

/** A fake \`go\`: no go.mod, so \`go test\` fails until \`go mod init\` made one. */
const GO = `#!/bin/sh
if [ "$1" = "mod" ] && [ "$2" = "init" ]; then echo "module $3" > go.mod; echo "go: creating new go.mod: module $3" >&2; exit 0; fi
if [ -f go.mod ]; then echo "ok  	example.com/app	0.012s"; exit 0; fi
echo "go: go.mod file not found in current directory or any parent directory; see 'go help modules'" >&2
exit 1
`;

const CARGO_BLOCK = [
  '`cargo test` failed: the repository root is a virtual workspace manifest.',
  '',
  '#lesson',
  'tool: Bash',
  'trigger: cargo test',
  'mistake: cargo test at the workspace root fails (virtual manifest, no package to run)',
  'fix: run cargo test --workspace (or --all) from the root',
  'tags: lang:rust, tool:cargo',
  '#/lesson',
  '',
  'Running the whole workspace now.',
].join('\n');

const GO_BLOCK = [
  'There is no go.mod yet, so `go test` has no module to test.',
  '',
  '#lesson',
  'tool: Bash',
  'trigger: go test ./...',
  'mistake: go test fails here: go.mod file not found (the repository is not a Go module yet)',
  'fix: run go mod init example.com/app once, then go test ./...',
  'tags: lang:go, tool:go',
  '#/lesson',
].join('\n');

function installTool(ws: Workspace, name: string, script: string): void {
  const path = join(ws.base, 'bin', name);
  writeFileSync(path, script);
  chmodSync(path, 0o755);
}

/** The transcripts under `dir` (recursively) whose name ends with `suffix`. */
function transcripts(dir: string, suffix: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith(suffix) && !name.includes('subagents'))
    .map((name) => join(dir, name));
}

/**
 * With LORE_RECORD_FIXTURES=1, the transcript as a fixture: the workspace's temp paths renamed
 * (repository to /home/dev/work/proj, home to /home/dev), as in the other recorded fixtures.
 */
function recordFixture(ws: Workspace, transcript: string, fixture: string): void {
  if (process.env.LORE_RECORD_FIXTURES !== '1') return;
  const dashed = (path: string) => path.replace(/[^A-Za-z0-9]/g, '-');
  const text = readFileSync(transcript, 'utf8')
    .replaceAll(ws.repo, '/home/dev/work/proj')
    .replaceAll(ws.home, '/home/dev')
    .replaceAll(ws.base, '/home/dev/work')
    .replaceAll(dashed(ws.repo), '-home-dev-work-proj');
  const target = join(FIXTURES, fixture);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, text);
}

type ScanJson = { candidates: { id: string; tier: number; trigger: string }[] };
type ExplainJson = { included: { id: string; matched_by: string[] }[] };

/** Scans `transcript`, approves its one candidate, and explains `command`: what would be injected. */
function scanApproveExplain(ws: Workspace, transcript: string, command: string) {
  const scan = JSON.parse(ws.lore(['scan', '--path', transcript, '--json'])) as ScanJson;
  const id = scan.candidates[0]?.id ?? '';
  const lesson = JSON.parse(ws.lore(['candidates', 'approve', id, '--json'])) as { id: string };
  const explain = JSON.parse(
    ws.lore(['explain', '--tool', 'Bash', '--command', command, '--json']),
  ) as ExplainJson;
  return { scan, lesson: lesson.id, included: explain.included.map((item) => item.id) };
}

describe('#lesson blocks written by the real agents', () => {
  it('Claude Code: cargo test fails, a block, the fixed command: one candidate that fires on cargo test --all', async () => {
    const ws = createWorkspace();
    installTool(ws, 'cargo', CARGO);
    const server = await startModelServer({
      steps: [
        { bash: 'cargo test' },
        { say: CARGO_BLOCK, bash: 'cargo test --workspace' },
        { text: 'The workspace tests pass.' },
      ],
    });
    const exit = await runClaude(ws, server, 'run the rust tests', ['--plugin-dir', PLUGIN_DIR]);
    await server.close();
    const [transcript, ...others] = transcripts(join(ws.home, '.claude', 'projects'), '.jsonl');
    recordFixture(ws, transcript ?? '', `claude-code/lesson-blocks-2.1.330/${transcript?.split('/').pop()}`);

    const result = scanApproveExplain(ws, transcript ?? '', 'cargo test --all');
    expect(exit.code, exit.stderr).toBe(0);
    expect(others).toEqual([]);
    expect(result.scan.candidates.map((c) => [c.tier, c.trigger.includes('cargo')])).toEqual([[1, true]]);
    expect(result.included).toEqual([result.lesson]);
  });

  it('Codex: go test fails, a block, the fixed command: one candidate that fires on go test ./...', async () => {
    const ws = createWorkspace();
    installTool(ws, 'go', GO);
    const server = await startModelServer({
      steps: [
        { bash: 'go test ./...' },
        { say: GO_BLOCK, bash: 'go mod init example.com/app && go test ./...' },
        { text: 'The Go tests pass.' },
      ],
    });
    const env = codexEnv(ws, server);
    ws.lore(['install', 'codex']);
    const exit = await runCodex(ws, env, 'run the go tests');
    await server.close();
    const sessions = join(ws.home, '.codex', 'sessions');
    const [transcript, ...others] = transcripts(sessions, '.jsonl');
    recordFixture(ws, transcript ?? '', `codex/sessions/${relative(sessions, transcript ?? '')}`);

    const result = scanApproveExplain(ws, transcript ?? '', 'go test ./pkg/...');
    expect(exit.code, exit.stderr).toBe(0);
    expect(others).toEqual([]);
    expect(result.scan.candidates.map((c) => [c.tier, c.trigger.includes('go')])).toEqual([[1, true]]);
    expect(result.included).toEqual([result.lesson]);
  });
});
