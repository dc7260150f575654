// A candidate already approved or rejected has left the queue; `lore candidates show` of it names
// what became of it (the lesson an approval made, and how to open it) instead of "no candidate".
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../helpers/cli.js';

const fixture = fileURLToPath(
  new URL(
    '../fixtures/transcripts/claude-code/M-Thisness__M-Claude__CHAT_LOGS__c7d2069e-c561-4759-8adf-b0745be78c29.jsonl',
    import.meta.url,
  ),
);

type Settled = { settled: { id: string; decision: string; lesson?: string }; next?: string };

describe('lore candidates show of a settled candidate', () => {
  it('names the lesson an approved candidate became, and a rejected one as rejected', () => {
    const sandbox = createSandbox();
    const dir = join(sandbox.home, '.claude', 'projects', '-home-dev-work');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'c7d2069e-c561-4759-8adf-b0745be78c29.jsonl'), readFileSync(fixture));
    expect(sandbox.run(['scan']).code).toBe(0);
    const listed = sandbox.run(['candidates', 'list', '--json']).json<{ candidates: { id: string }[] }>();
    const [approved, rejected] = listed.candidates.map((c) => c.id) as [string, string];
    // -q prints the new lesson's id alone, as `lore add -q` does
    const quiet = sandbox.run(['candidates', 'approve', approved, '--force', '-q']);
    expect(quiet.code).toBe(0);
    const lesson = quiet.stdout.trim();
    expect(lesson).toMatch(/^[0-9a-z]{10}$/);
    expect(sandbox.run(['candidates', 'reject', rejected]).code).toBe(0);

    const shown = sandbox.run(['candidates', 'show', approved]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(`candidate ${approved} was approved`);
    expect(shown.stdout).toContain(`it is lesson ${lesson}`);
    expect(shown.stdout).toContain(`lore show ${lesson}`);
    expect(sandbox.run(['candidates', 'show', approved.slice(0, 6), '--json']).json<Settled>()).toEqual({
      settled: expect.objectContaining({ id: approved, decision: 'approved', lesson }),
      next: `lore show ${lesson}`,
    });
    expect(sandbox.run(['show', lesson]).code).toBe(0);

    const again = sandbox.run(['candidates', 'approve', approved]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`it is lesson ${lesson}`);

    const gone = sandbox.run(['candidates', 'show', rejected, '--json']);
    expect(gone.code).toBe(0);
    expect(gone.json<Settled>().settled).toEqual(
      expect.objectContaining({ id: rejected, decision: 'rejected' }),
    );
    expect(sandbox.run(['candidates', 'show', 'zzzzzzzz']).code).toBe(1);
  });
});
