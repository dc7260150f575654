// Approving (or rejecting) one candidate from several processes at once makes one decision: one
// lesson, the other processes told the candidate is gone.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createSandbox, LORE_BIN } from '../helpers/cli.js';
import type { Sandbox } from '../helpers/cli.js';

const fixture = fileURLToPath(
  new URL(
    '../fixtures/transcripts/claude-code/M-Thisness__M-Claude__CHAT_LOGS__c7d2069e-c561-4759-8adf-b0745be78c29.jsonl',
    import.meta.url,
  ),
);

function withCandidates(): { sandbox: Sandbox; ids: string[] } {
  const sandbox = createSandbox();
  const dir = join(sandbox.home, '.claude', 'projects', '-home-dev-work');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'c7d2069e-c561-4759-8adf-b0745be78c29.jsonl'), readFileSync(fixture));
  expect(sandbox.run(['scan']).code).toBe(0);
  const ids = sandbox
    .run(['candidates', 'list', '--json'])
    .json<{ candidates: { id: string }[] }>()
    .candidates.map((c) => c.id);
  expect(ids.length).toBeGreaterThan(1);
  return { sandbox, ids };
}

const lessonCount = (sandbox: Sandbox) =>
  [sandbox.inRepo('.lore', 'lessons'), join(sandbox.userTier, 'lessons')]
    .map((dir) => {
      try {
        return readdirSync(dir).length;
      } catch {
        return 0;
      }
    })
    .reduce((a, b) => a + b, 0);

describe('an approval killed part-way', () => {
  it('decides the moment its lesson exists: killed while it updates the manifest, approving again makes no second lesson', async () => {
    const { sandbox } = withCandidates();
    const [first] = sandbox
      .run(['candidates', 'list', '--json'])
      .json<{ candidates: { id: string; file: string }[] }>().candidates;
    const candidateDir = dirname(
      first!.file.startsWith('~/') ? join(sandbox.home, first!.file.slice(2)) : sandbox.inRepo(first!.file),
    );
    const before = lessonCount(sandbox);
    // a live process holds the manifest's write lock: the approval waits there (up to 10 s), after
    // its lesson is written
    const lock = sandbox.inRepo('.lore', 'cache', 'locks', 'manifest-write.lock');
    mkdirSync(dirname(lock), { recursive: true });
    writeFileSync(lock, String(process.pid));
    const child = spawn(process.execPath, [LORE_BIN, 'candidates', 'approve', first!.id, '--force'], {
      cwd: sandbox.repo,
      env: sandbox.env,
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    const deadline = Date.now() + 8_000;
    while (Date.now() < deadline && (lessonCount(sandbox) === before || existsSync(candidateDir)))
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(lessonCount(sandbox)).toBe(before + 1);
    expect(existsSync(candidateDir)).toBe(false);
    child.kill('SIGKILL');
    await exited;
    rmSync(lock, { force: true });

    const again = sandbox.run(['candidates', 'approve', first!.id, '--force']);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/is gone|no candidate matches|was approved/);
    expect(lessonCount(sandbox)).toBe(before + 1);
  });
});

describe('one candidate, several processes', () => {
  it('five approvals at once make one lesson; the others say it is gone', async () => {
    const { sandbox, ids } = withCandidates();
    const before = lessonCount(sandbox);
    const runs = await Promise.all(
      Array.from({ length: 5 }, () =>
        sandbox.runAsync(['candidates', 'approve', ids[0] as string, '--force']),
      ),
    );
    expect(runs.filter((run) => run.code === 0)).toHaveLength(1);
    for (const run of runs.filter((r) => r.code !== 0)) {
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/is gone|no candidate matches|was approved/);
    }
    expect(lessonCount(sandbox)).toBe(before + 1);
  });

  it('an approval and rejections at once: one decision', async () => {
    const { sandbox, ids } = withCandidates();
    const before = lessonCount(sandbox);
    const id = ids[1] as string;
    const runs = await Promise.all([
      sandbox.runAsync(['candidates', 'approve', id, '--force']),
      sandbox.runAsync(['candidates', 'reject', id]),
      sandbox.runAsync(['candidates', 'reject', id]),
    ]);
    expect(runs.filter((run) => run.code === 0)).toHaveLength(1);
    const approved = runs[0]?.code === 0 ? 1 : 0;
    expect(lessonCount(sandbox)).toBe(before + approved);
  });
});
