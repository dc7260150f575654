// Approving (or rejecting) one candidate from several processes at once makes one decision: one
// lesson, the other processes told the candidate is gone.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../helpers/cli.js';
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
      expect(run.stderr).toMatch(/is gone|no candidate matches/);
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
