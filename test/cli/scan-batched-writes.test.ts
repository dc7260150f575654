// A scan gathers what its episodes do to each candidate and writes each candidate once: the same
// candidates must come of it as of scanning the same history one session at a time.
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
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
const ORIGINAL = 'c7d2069e-c561-4759-8adf-b0745be78c29';

/** Copy `n` of the session under a fresh session id, as a user's history repeats a mistake. */
function writeCopy(sandbox: Sandbox, n: number): void {
  const id = `c7d2069e-c561-4759-8adf-${String(n).padStart(12, '0')}`;
  const dir = join(sandbox.home, '.claude', 'projects', '-home-dev-work');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${id}.jsonl`), readFileSync(fixture, 'utf8').split(ORIGINAL).join(id));
}

type Listed = { summary: string; occurrences: number };

function candidates(sandbox: Sandbox): Listed[] {
  const run = sandbox.run(['candidates', 'list', '--json']);
  expect(run.code, run.stderr).toBe(0);
  return run
    .json<{ candidates: Listed[] }>()
    .candidates.map(({ summary, occurrences }) => ({ summary, occurrences }))
    .sort((a, b) => a.summary.localeCompare(b.summary));
}

describe('lore scan writes each candidate once per scan', () => {
  it('makes the same candidates from three copies at once as from one copy per scan', () => {
    const together = createSandbox();
    for (const n of [1, 2, 3]) writeCopy(together, n);
    const all = together.run(['scan', '--json']);
    expect(all.code, all.stderr).toBe(0);
    const once = all.json<{ new: number; merged: number }>();

    const apart = createSandbox();
    let created = 0;
    for (const n of [1, 2, 3]) {
      writeCopy(apart, n);
      const run = apart.run(['scan', '--json']);
      expect(run.code, run.stderr).toBe(0);
      created += run.json<{ new: number }>().new;
    }
    expect(once.new).toBe(created);
    expect(once.merged).toBe(0);
    const gathered = candidates(together);
    expect(gathered.length).toBeGreaterThan(3);
    // each copy repeats what the first holds (a mistake made twice in it counts twice in each)
    expect(gathered.every((c) => c.occurrences % 3 === 0)).toBe(true);
    expect(gathered).toEqual(candidates(apart));
  });

  it('leaves a candidate file untouched when its episodes were already in it', () => {
    const sandbox = createSandbox();
    writeCopy(sandbox, 1);
    expect(sandbox.run(['scan']).code).toBe(0);
    const dir = join(sandbox.userTier, 'candidates');
    const listed = sandbox.run(['candidates', 'list', '--json']).json<{ candidates: { id: string }[] }>();
    const file = join(dir, listed.candidates[0]?.id ?? '', 'lesson.yaml');
    const before = statSync(file);
    // the scan state is lost: the same session is read again and finds the same episodes
    const statePath = sandbox.inRepo('.lore', 'cache', 'capture', 'scan-state.json');
    expect(statSync(statePath).isFile()).toBe(true);
    rmSync(statePath);
    const again = sandbox.run(['scan', '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.json<{ new: number; merged: number }>()).toMatchObject({ new: 0, merged: 0 });
    const after = statSync(file);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
  });
});
