import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../helpers/cli.js';
import {
  appendOutcomes,
  lessonReplay,
  outcome,
  replayReport,
  REPLAY_AT,
  writeLastReplay,
} from '../helpers/replay-files.js';

type ShowJson = {
  lesson: { id: string };
  replay: null | {
    id: string;
    at: string;
    asOf: boolean;
    calls: number;
    fires: number;
    hits: number;
    noise: number;
    prevented: number;
    precision: number | null;
    byForm: Record<string, { fires: number }>;
    asCheckpoint?: { denials: number; prevented: number };
    suggestions: { kind: string; text: string }[];
  };
  lastReplayAt: string | null;
  outcomes: null | {
    prevented: number;
    repeated: number;
    noise: number;
    unlinked: number;
    total: number;
    last: { verdict: string; injectedAt: string } | null;
    feedback: { helpful: number; notHelpful: number };
  };
  problems: { file: string; line?: number; message: string }[];
};

describe('lore show: the last replay and outcome feedback', () => {
  it('shows the lesson’s replay figures and the outcomes of its injections, in text and --json', () => {
    const sandbox = createSandbox();
    const id = sandbox.add([
      '--summary',
      'pytest hangs on a TTY: run CI=1 pytest',
      '--command',
      '\\bpytest\\b',
    ]);
    const other = sandbox.add(['--summary', 'git stash drops untracked files', '--command', 'git stash']);
    const cache = sandbox.inRepo('.lore', 'cache');
    writeLastReplay(
      cache,
      replayReport(
        [lessonReplay(id), lessonReplay(other, { fires: 0, hits: 0, noise: 0, precision: null })],
        {
          suggestions: [
            {
              lesson: id,
              kind: 'narrow',
              text: 'fires on 12 calls, 3 at its mistake: narrow it to `pytest -x`',
            },
            { lesson: other, kind: 'retire', text: 'never fired' },
          ],
        },
      ),
    );
    appendOutcomes(cache, [
      outcome(id, '2026-11-20T10:00:00.000Z', 'prevented'),
      outcome(id, '2026-11-20T11:00:00.000Z', 'noise'),
      outcome(id, '2026-11-21T08:00:00.000Z', 'repeated', { session: 'session-2' }),
      outcome(id, '2026-11-21T08:00:00.000Z', 'repeated', { session: 'session-2' }), // judged again on a rescan
      '{"lesson": "torn',
      outcome(other, '2026-11-21T09:00:00.000Z', 'unlinked'),
    ]);
    // the automatic reports outcome feedback writes beside the explicit ones
    appendFileSync(
      join(sandbox.repo, '.lore', 'lessons', id, 'feedback.jsonl'),
      [
        {
          helpful: true,
          task: 'outcome',
          at: '2026-11-20T10:05:00.000Z',
          source: 'outcome',
          session: 'session-1',
        },
        {
          helpful: false,
          task: 'outcome',
          at: '2026-11-21T08:05:00.000Z',
          source: 'outcome',
          session: 'session-2',
        },
        { helpful: true, task: 'T-1', at: '2026-11-21T08:06:00.000Z', source: 'cli' },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n') + '\n',
    );

    const shown = sandbox.run(['show', id, '--json']);
    expect(shown.code).toBe(0);
    const json = shown.json<ShowJson>();
    expect(json.replay).toMatchObject({
      id,
      at: REPLAY_AT,
      asOf: true,
      calls: 660,
      fires: 12,
      hits: 3,
      noise: 9,
      prevented: 2,
      precision: 0.25,
      asCheckpoint: { denials: 5, prevented: 3 },
      suggestions: [
        { kind: 'narrow', text: 'fires on 12 calls, 3 at its mistake: narrow it to `pytest -x`' },
      ],
    });
    expect(Object.keys(json.replay?.byForm ?? {}).sort()).toEqual(['after-call', 'before-call']);
    expect(json.outcomes).toEqual({
      prevented: 1,
      repeated: 1,
      noise: 1,
      unlinked: 0,
      total: 3,
      byForm: { 'after-call': { prevented: 1, repeated: 1, noise: 1, unlinked: 0 } },
      last: {
        verdict: 'repeated',
        form: 'after-call',
        injectedAt: '2026-11-21T08:00:00.000Z',
        judgedAt: '2026-11-22T11:00:00.000Z',
        session: 'session-2',
      },
      feedback: { helpful: 1, notHelpful: 1 },
    });
    expect(json.problems).toEqual([
      {
        file: '.lore/cache/outcomes.jsonl',
        line: 5,
        message: '1 line(s) that are not outcome records were skipped (line 5)',
        severity: 'warning',
      },
    ]);
    expect(shown.stderr).toContain('.lore/cache/outcomes.jsonl:5');

    const text = sandbox.run(['show', id]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(
      'replay (2026-11-21, --as-of, 660 calls): fires 12   hits 3   misses 1   noise 9   prevented 2   precision 25%',
    );
    expect(text.stdout).toContain('  after-call: fires 10   hits 2   misses 1   noise 8   prevented 2');
    expect(text.stdout).toContain('  as a checkpoint it would have denied 5 call(s) and prevented 3');
    expect(text.stdout).toContain('  suggestion (narrow): fires on 12 calls, 3 at its mistake');
    expect(text.stdout).toContain(
      'outcomes: 3 injection(s) judged: 1 prevented, 1 repeated, 1 noise, 0 unlinked (last: repeated, after-call, injected 2026-11-21T08:00:00.000Z)',
    );
    expect(text.stdout).toContain('  outcome feedback: 1 helpful, 1 not helpful');

    const never = sandbox.run(['show', other, '--json']).json<ShowJson>();
    expect(never.replay).toMatchObject({ fires: 0, precision: null, suggestions: [{ kind: 'retire' }] });
    expect(never.outcomes).toMatchObject({ unlinked: 1, total: 1, feedback: { helpful: 0, notHelpful: 0 } });
  });

  it('says to run `lore replay` before the first replay, and for a lesson the last one did not include', () => {
    const sandbox = createSandbox();
    const id = sandbox.add([
      '--summary',
      'pytest hangs on a TTY: run CI=1 pytest',
      '--command',
      '\\bpytest\\b',
    ]);
    const none = sandbox.run(['show', id, '--json']);
    expect(none.code).toBe(0);
    expect(none.json<ShowJson>()).toMatchObject({
      replay: null,
      lastReplayAt: null,
      outcomes: null,
      problems: [],
    });
    const text = sandbox.run(['show', id]).stdout;
    expect(text).toContain('replay: none yet; run `lore replay`');
    expect(text).toContain('outcomes: none judged yet');

    writeLastReplay(sandbox.inRepo('.lore', 'cache'), replayReport([lessonReplay('someotherlesson')]));
    const missing = sandbox.run(['show', id, '--json']).json<ShowJson>();
    expect(missing).toMatchObject({ replay: null, lastReplayAt: REPLAY_AT });
    expect(sandbox.run(['show', id]).stdout).toContain(
      'replay: not in the last replay (2026-11-21); run `lore replay` to measure it',
    );
  });

  it('names a broken last replay and still shows the lesson', () => {
    const sandbox = createSandbox();
    const id = sandbox.add([
      '--summary',
      'pytest hangs on a TTY: run CI=1 pytest',
      '--command',
      '\\bpytest\\b',
    ]);
    writeLastReplay(
      sandbox.inRepo('.lore', 'cache'),
      '{"version": 1, "at": "2026-11-21T09:30:00Z", "lessons": [',
    );
    const shown = sandbox.run(['show', id, '--json']);
    expect(shown.code).toBe(0);
    const json = shown.json<ShowJson>();
    expect(json.replay).toBeNull();
    expect(json.problems.map((p) => p.file)).toEqual(['.lore/cache/replay/last.json']);
    expect(json.problems[0]?.message).toMatch(/the last replay is broken: not JSON .*run `lore replay`/);
    expect(shown.stderr).toContain(
      'lore: .lore/cache/replay/last.json: error: the last replay is broken: not JSON',
    );
  });

  it('reads the user tier’s last replay outside a project', () => {
    const sandbox = createSandbox({ init: false });
    const id = sandbox.add(['--summary', 'docker compose: free port 5432 first', '--tier', 'user']);
    writeLastReplay(join(sandbox.userTier, 'cache'), replayReport([lessonReplay(id, { noise: 1 })]));
    expect(sandbox.run(['show', id, '--json']).json<ShowJson>().replay).toMatchObject({ id, noise: 1 });
  });
});
