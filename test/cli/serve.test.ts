import { cpSync, existsSync, mkdirSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createSandbox, exited } from '../helpers/cli.js';
import type { Sandbox } from '../helpers/cli.js';

const FIXTURE = fileURLToPath(
  new URL(
    '../fixtures/transcripts/claude-code/d-kimuson__claude-code-viewer__5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl',
    import.meta.url,
  ),
);

/** Starts a long-running verb and resolves with its stdout once it printed the dashboard URL. */
function start(sandbox: Sandbox, args: string[]): Promise<{ child: ChildProcess; url: string; out: string }> {
  const child = sandbox.spawn(args);
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let out = '';
  let err = '';
  return new Promise((resolve, reject) => {
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const url = /dashboard at (http:\/\/\S+)/.exec(out)?.[1];
      const waitsForToken = args.includes('--host') && !out.includes('API token');
      if (url && !waitsForToken) resolve({ child, url: url.replace(/#.*$/, ''), out });
    });
    child.on('exit', (code) => reject(new Error(`lore ${args.join(' ')} exited ${code}:\n${out}\n${err}`)));
  });
}

describe('lore serve and lore up', () => {
  it('serves the API and the dashboard on loopback until SIGTERM', async () => {
    const sandbox = createSandbox();
    sandbox.add(['--summary', 'pytest hangs on a TTY: run CI=1 pytest']);
    const { child, url } = await start(sandbox, ['serve', '--port', '0']);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(await page.text()).toContain('/assets/app.js');
    const lessons = (await (await fetch(`${url}api/lessons`)).json()) as { items: { summary: string }[] };
    expect(lessons.items.map((l) => l.summary)).toEqual(['pytest hangs on a TTY: run CI=1 pytest']);
    child.kill('SIGTERM');
    expect(await exited(child)).toEqual({ code: 0, signal: null });
  });

  it('off loopback, generates and prints a token that every API request must carry', async () => {
    const sandbox = createSandbox();
    const { child, url, out } = await start(sandbox, ['serve', '--port', '0', '--host', '0.0.0.0']);
    const token = /API token \(generated[^)]*\): (\S+)/.exec(out)?.[1] ?? '';
    expect(token.length).toBeGreaterThan(20);
    expect(out).toContain(`#token=${token}`);
    const local = url.replace('0.0.0.0', '127.0.0.1');
    expect((await fetch(`${local}api/lessons`)).status).toBe(401);
    const authorized = await fetch(`${local}api/lessons`, { headers: { authorization: `Bearer ${token}` } });
    expect(authorized.status).toBe(200);
    child.kill('SIGTERM');
    expect((await exited(child)).code).toBe(0);
  });

  it('lore up without transcripts shows a sample workspace, says so, and cleans it up', async () => {
    const sandbox = createSandbox();
    const { child, url, out } = await start(sandbox, ['up', '--port', '0', '--no-open']);
    expect(out).toContain('no agent transcripts on this machine');
    const status = (await (await fetch(`${url}api/status`)).json()) as {
      notice: string;
      projectRoot: string;
    };
    expect(status.notice).toMatch(/^Sample data/);
    const queue = (await (await fetch(`${url}api/candidates`)).json()) as { candidates: unknown[] };
    expect(queue.candidates.length).toBeGreaterThan(5);
    const usage = (await (await fetch(`${url}api/analytics`)).json()) as {
      totals: { injections: number };
      outcomesPerWeek: { prevented: number; noise: number }[];
    };
    expect(usage.totals.injections).toBeGreaterThan(5);
    // the sample's hand-made last replay and outcomes: the Replay page and the weekly charts are not empty
    expect(usage.outcomesPerWeek.reduce((sum, w) => sum + w.prevented, 0)).toBeGreaterThan(0);
    expect(usage.outcomesPerWeek.reduce((sum, w) => sum + w.noise, 0)).toBeGreaterThan(0);
    const replay = (await (await fetch(`${url}api/replay`)).json()) as {
      options: { sources: string[] };
      lessons: unknown[];
      suggestions: { kind: string }[];
    };
    expect(replay.options.sources).toEqual(['sample']);
    expect(replay.lessons).toHaveLength(6);
    expect(replay.suggestions.map((s) => s.kind).sort()).toEqual(['narrow', 'retire']);
    expect(existsSync(status.projectRoot)).toBe(true);
    child.kill('SIGTERM');
    expect((await exited(child)).code).toBe(0);
    expect(existsSync(status.projectRoot)).toBe(false);
  });

  it("lore up scans this machine's transcripts into the review queue and serves them", async () => {
    const sandbox = createSandbox();
    const projects = join(sandbox.home, '.claude', 'projects', 'proj');
    mkdirSync(projects, { recursive: true });
    cpSync(FIXTURE, join(projects, 'session.jsonl'));
    const { child, url, out } = await start(sandbox, ['up', '--port', '0', '--no-open']);
    expect(out).toMatch(/scanned 1 transcript file\(s\): [1-9]\d* new candidate\(s\)/);
    const queue = (await (await fetch(`${url}api/candidates`)).json()) as { candidates: unknown[] };
    expect(queue.candidates.length).toBeGreaterThan(0);
    child.kill('SIGTERM');
    expect((await exited(child)).code).toBe(0);
  });
});
