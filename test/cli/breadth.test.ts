import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../helpers/cli.js';
import type { Sandbox } from '../helpers/cli.js';

type Breadth = {
  calls: number;
  fires: number;
  atMistake: number;
  broad: boolean;
  toolOnly: boolean;
  noCache: boolean;
  message: string;
};

const SECRET = 'AKIAIOSFODNN7EXAMPLE';

/**
 * A Claude Code transcript of 200 Bash calls: 100 `ls`, 90 `npm run build`, 10 `pytest -q` of which
 * 4 fail with a missing module, and one curl carrying an AWS key.
 */
function transcript(): string {
  const base = { sessionId: 's-breadth', cwd: '/work/app' };
  const calls = [
    ...Array.from({ length: 99 }, () => ({ command: 'ls -la', result: 'a b c', error: false })),
    { command: `curl -u ${SECRET}:x https://example.test`, result: 'ok', error: false },
    ...Array.from({ length: 90 }, () => ({ command: 'npm run build', result: 'built', error: false })),
    ...Array.from({ length: 10 }, (_, i) =>
      i < 4
        ? { command: 'pytest -q', result: "ModuleNotFoundError: No module named 'foo'", error: true }
        : { command: 'pytest -q', result: '3 passed', error: false },
    ),
  ];
  return calls
    .flatMap(({ command, result, error }, i) => {
      const timestamp = new Date(Date.UTC(2026, 10, 1, 0, 0, i)).toISOString();
      return [
        {
          ...base,
          timestamp,
          type: 'assistant',
          message: {
            role: 'assistant',
            content: [{ type: 'tool_use', id: `t${i}`, name: 'Bash', input: { command } }],
          },
        },
        {
          ...base,
          timestamp,
          type: 'user',
          message: {
            role: 'user',
            content: [{ type: 'tool_result', tool_use_id: `t${i}`, is_error: error, content: result }],
          },
        },
      ];
    })
    .map((line) => `${JSON.stringify(line)}\n`)
    .join('');
}

function scanned(): Sandbox {
  const sandbox = createSandbox();
  const dir = join(sandbox.base, 'transcripts');
  mkdirSync(dir);
  writeFileSync(join(dir, 'session.jsonl'), transcript());
  const scan = sandbox.run(['scan', '--path', dir, '--json']);
  expect(scan.code, scan.stderr).toBe(0);
  return sandbox;
}

const CACHE = ['.lore', 'cache', 'capture', 'call-cache.json'];

describe('the breadth check at authoring', () => {
  it('lore scan keeps the recent calls, redacted, with their outcomes', () => {
    const sandbox = scanned();
    const text = readFileSync(sandbox.inRepo(...CACHE), 'utf8');
    expect(text).not.toContain(SECRET);
    const stored = JSON.parse(text) as { sessions: { calls: { outcome: string; errorClass?: string }[] }[] };
    const calls = stored.sessions.flatMap((s) => s.calls);
    expect(calls).toHaveLength(200);
    expect(calls.filter((c) => c.errorClass === 'missing-module')).toHaveLength(4);
  });

  it('refuses a broad trigger with its figures, and saves it with --force', () => {
    const sandbox = scanned();
    const refused = sandbox.run(['add', '--summary', 'Mind the shell', '--tool', 'Bash']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'would have fired on 200 of your last 200 calls, 4 of them at this mistake (scoped by tool alone',
    );
    expect(refused.stderr).toContain('--force');
    expect(sandbox.run(['list', '--json']).json<{ lessons: unknown[] }>().lessons).toHaveLength(0);

    const npm = sandbox.run(['add', '--summary', 'npm builds', '--command', '^npm run', '--json']);
    expect(npm.code).toBe(1);
    expect(npm.json<{ error: { details: { breadth: Breadth } } }>().error.details.breadth).toMatchObject({
      fires: 90,
      atMistake: 0,
      broad: true,
    });

    const forced = sandbox.run(['add', '--summary', 'Mind the shell', '--tool', 'Bash', '--force', '--json']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.json<{ breadth: Breadth }>().breadth).toMatchObject({
      calls: 200,
      fires: 200,
      broad: true,
      toolOnly: true,
    });
  });

  it('saves a narrow trigger and prints its figures', () => {
    const sandbox = scanned();
    const run = sandbox.run([
      'add',
      '--summary',
      'Install the test deps first',
      '--command',
      '^pytest\\b',
      '--mistake',
      "ModuleNotFoundError: No module named 'foo'",
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      'breadth: would have fired on 10 of your last 200 calls, 4 of them at this mistake',
    );
  });

  it('lore update of the trigger runs the check too', () => {
    const sandbox = scanned();
    const id = sandbox.add(['--summary', 'pytest', '--command', '^pytest\\b']);
    const widened = sandbox.run(['update', id, '--unset', 'commands', '--tool', 'Bash']);
    expect(widened.code).toBe(1);
    expect(widened.stderr).toContain('scoped by tool alone');
    const summary = sandbox.run(['update', id, '--summary', 'pytest needs its deps', '--json']);
    expect(summary.code, summary.stderr).toBe(0);
    expect(summary.json<{ breadth?: Breadth }>().breadth).toBeUndefined();
  });

  it('says in one line that there is no cache yet, and saves', () => {
    const sandbox = createSandbox();
    const run = sandbox.run(['add', '--summary', 'Mind the shell', '--tool', 'Bash', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.json<{ breadth: Breadth }>().breadth).toMatchObject({ noCache: true, toolOnly: true });
  });

  it('treats a damaged cache as empty and says so', () => {
    const sandbox = scanned();
    writeFileSync(sandbox.inRepo(...CACHE), '{"version":1,"sess');
    const run = sandbox.run(['add', '--summary', 'Mind the shell', '--tool', 'Bash']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('the call cache could not be read');
  });

  it('lore import holds broad lessons for review unless --force', () => {
    const sandbox = scanned();
    const lesson = (id: string, summary: string, triggers: Record<string, string[]>) => ({
      id,
      slug: id.toLowerCase(),
      summary,
      mistake: 'it broke',
      remediation: 'do it right',
      triggers: { toolNames: [], commandPatterns: [], pathPatterns: [], contentPatterns: [], ...triggers },
      priority: 5,
      confidence: 0.9,
      needsReview: false,
      tags: [],
      createdAt: '2026-04-01T12:00:00Z',
      updatedAt: '2026-04-01T12:00:00Z',
    });
    const store = {
      type: 'lessons-learned-store',
      version: 1,
      lessons: [
        lesson('01JR0AB3C4D5E6F7G8H9J0KMNA', 'Every shell call', { toolNames: ['Bash'] }),
        lesson('01JR0AB3C4D5E6F7G8H9J0KMNB', 'pytest deps', { commandPatterns: ['^pytest\\b'] }),
      ],
    };
    mkdirSync(sandbox.inRepo('data'));
    writeFileSync(sandbox.inRepo('data', 'lessons.json'), JSON.stringify(store));
    const run = sandbox.run(['import', 'data/lessons.json']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/breadth check: 1 lesson\(s\) with a broad trigger/);
    expect(run.stdout).toContain('would have fired on 200 of your last 200 calls');
    expect(run.stdout).toContain('marked needsReview');
    const listed = sandbox
      .run(['export', '--json'])
      .json<{ lessons: { summary: string; needsReview: boolean }[] }>()
      .lessons.map((l) => [l.summary, l.needsReview])
      .sort();
    expect(listed).toEqual([
      ['Every shell call', true],
      ['pytest deps', false],
    ]);

    const other = scanned();
    mkdirSync(other.inRepo('data'));
    writeFileSync(other.inRepo('data', 'lessons.json'), JSON.stringify(store));
    const forced = other.run(['import', 'data/lessons.json', '--force', '--json']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.json<{ broad: { held: boolean; breadth: Breadth }[] }>().broad).toMatchObject([
      { held: false, breadth: { fires: 200, broad: true } },
    ]);
  });

  it("lore import of lore's own JSON holds a broad lesson too", () => {
    const source = createSandbox();
    source.add(['--summary', 'Every shell call', '--tool', 'Bash']);
    source.add(['--summary', 'pytest deps', '--command', '^pytest\\b']);
    const exported = source.run(['export', '--json']);
    expect(exported.code, exported.stderr).toBe(0);
    const sandbox = scanned();
    const run = sandbox.run(['import', '-', '--json'], { input: exported.stdout });
    expect(run.code, run.stderr).toBe(0);
    const report = run.json<{ added: string[]; broad: { id: string; held: boolean; breadth: Breadth }[] }>();
    expect(report.added).toHaveLength(2);
    expect(report.broad).toMatchObject([{ held: true, breadth: { fires: 200, toolOnly: true } }]);
    const shown = sandbox.run(['show', report.broad[0]?.id ?? '', '--json']);
    expect(shown.json<{ lesson: { needsReview: boolean } }>().lesson.needsReview).toBe(true);
  });
});
