import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAppSandbox, NOW } from '../helpers/http.js';
import {
  appendOutcomes,
  lessonReplay,
  outcome,
  replayReport,
  REPLAY_AT,
  writeLastReplay,
} from '../helpers/replay-files.js';

type ErrorBody = { error: { code: string; message: string; hint: string | null } };
type Weekly = {
  week: string;
  start: string;
  prevented: number;
  noise: number;
  repeated: number;
  unlinked: number;
};

describe('HTTP API: the last replay and outcome feedback', () => {
  it('GET /api/replay: 404 with what to run before the first replay, then the report', async () => {
    const sandbox = createAppSandbox();
    const none = await sandbox.app.request('/api/replay');
    expect(none.status).toBe(404);
    expect(none.json<ErrorBody>().error).toMatchObject({ code: 'no-replay', message: 'no replay yet' });
    expect(none.json<ErrorBody>().error.hint).toContain('run `lore replay`');

    const id = await sandbox.add({
      summary: 'pytest hangs on a TTY: run CI=1 pytest',
      commands: ['\\bpytest\\b'],
    });
    const report = replayReport([lessonReplay(id)], {
      suggestions: [{ lesson: id, kind: 'narrow', text: 'narrow it', trigger: { commands: ['pytest -x'] } }],
    });
    writeLastReplay(join(sandbox.repo, '.lore', 'cache'), report);
    const found = await sandbox.app.request('/api/replay');
    expect(found.status).toBe(200);
    expect(found.json()).toEqual({ ...report, file: '.lore/cache/replay/last.json', problems: [] });
  });

  it('GET /api/replay: the project’s, else the user tier’s, and a broken one named', async () => {
    const sandbox = createAppSandbox();
    const ws = await sandbox.open();
    const userCache = ws.user.layout.cacheDir;
    ws.close();
    const projectCache = join(sandbox.repo, '.lore', 'cache');
    writeLastReplay(userCache, replayReport([], { at: '2026-11-21T00:00:00.000Z', calls: 7 }));
    expect((await sandbox.app.request('/api/replay')).json<{ calls: number; file: string }>()).toMatchObject({
      calls: 7,
      file: '~/.lore/cache/replay/last.json',
    });
    // the project's own, even when the user tier's is newer
    writeLastReplay(projectCache, replayReport([], { at: '2026-11-20T00:00:00.000Z', calls: 5 }));
    expect((await sandbox.app.request('/api/replay')).json<{ calls: number }>().calls).toBe(5);

    // a broken project replay is named, and the user tier's shows
    writeLastReplay(projectCache, '{"version": 1');
    const withBroken = (await sandbox.app.request('/api/replay')).json<{
      calls: number;
      problems: { file: string }[];
    }>();
    expect(withBroken.calls).toBe(7);
    expect(withBroken.problems.map((p) => p.file)).toEqual(['.lore/cache/replay/last.json']);

    writeLastReplay(projectCache, JSON.stringify({ version: 3 }));
    writeLastReplay(userCache, 'null');
    const broken = await sandbox.app.request('/api/replay');
    expect(broken.status).toBe(422);
    expect(broken.json<ErrorBody>().error).toMatchObject({ code: 'bad-replay' });
    expect(broken.json<ErrorBody>().error.message).toMatch(
      /^\.lore\/cache\/replay\/last\.json: the last replay is broken: replay report version 3, expected 1/,
    );
  });

  it('GET /api/lessons/:id carries the lesson’s replay line and the outcomes of its injections', async () => {
    const sandbox = createAppSandbox();
    const id = await sandbox.add({
      summary: 'pytest hangs on a TTY: run CI=1 pytest',
      commands: ['\\bpytest\\b'],
    });
    const bare = (await sandbox.app.request(`/api/lessons/${id}`)).json<Record<string, unknown>>();
    expect(bare).toMatchObject({ replay: null, lastReplayAt: null, outcomes: null, problems: [] });

    const cache = join(sandbox.repo, '.lore', 'cache');
    writeLastReplay(cache, replayReport([lessonReplay(id)]));
    appendOutcomes(cache, [
      outcome(id, '2026-11-20T10:00:00.000Z', 'prevented'),
      outcome(id, '2026-11-21T10:00:00.000Z', 'noise', { form: 'guard' }),
      'not json at all',
    ]);
    const detail = (await sandbox.app.request(`/api/lessons/${id}`)).json<{
      replay: { at: string; fires: number; noise: number; precision: number; byForm: object } | null;
      outcomes: { prevented: number; noise: number; last: { verdict: string } } | null;
      problems: { file: string; message: string }[];
    }>();
    expect(detail.replay).toMatchObject({ at: REPLAY_AT, fires: 12, noise: 9, precision: 0.25 });
    expect(detail.outcomes).toMatchObject({ prevented: 1, noise: 1, last: { verdict: 'noise' } });
    expect(detail.problems).toMatchObject([{ file: '.lore/cache/outcomes.jsonl', line: 3 }]);
  });

  it('GET /api/analytics: mistakes prevented and injections that were noise per ISO week', async () => {
    const sandbox = createAppSandbox();
    const id = await sandbox.add({
      summary: 'pytest hangs on a TTY: run CI=1 pytest',
      commands: ['\\bpytest\\b'],
    });
    const cache = join(sandbox.repo, '.lore', 'cache');
    // NOW is Sunday 2026-11-22, in 2026-W47 (Monday 2026-11-16)
    appendOutcomes(cache, [
      outcome(id, '2026-11-22T10:00:00.000Z', 'prevented'),
      outcome(id, '2026-11-16T00:00:00.000Z', 'prevented', { session: 's2' }),
      outcome(id, '2026-11-15T23:59:59.000Z', 'noise'),
      outcome(id, '2026-11-10T09:00:00.000Z', 'noise', { session: 's3' }),
      outcome(id, '2026-11-10T09:00:00.000Z', 'noise', { session: 's3' }), // the same injection, judged twice
      outcome(id, '2026-11-11T09:00:00.000Z', 'repeated'),
      '{"torn":',
    ]);
    const analytics = await sandbox.app.request('/api/analytics?days=7&weeks=3');
    expect(analytics.status).toBe(200);
    const body = analytics.json<{
      weeks: number;
      outcomesPerWeek: Weekly[];
      outcomeProblems: object[];
      days: number;
    }>();
    expect(body.days).toBe(7);
    expect(body.weeks).toBe(3);
    expect(body.outcomesPerWeek).toEqual([
      { week: '2026-W45', start: '2026-11-02', prevented: 0, noise: 0, repeated: 0, unlinked: 0 },
      { week: '2026-W46', start: '2026-11-09', prevented: 0, noise: 2, repeated: 1, unlinked: 0 },
      { week: '2026-W47', start: '2026-11-16', prevented: 2, noise: 0, repeated: 0, unlinked: 0 },
    ]);
    expect(body.outcomeProblems).toMatchObject([{ file: '.lore/cache/outcomes.jsonl', line: 7 }]);

    const twelve = (await sandbox.app.request('/api/analytics')).json<{ outcomesPerWeek: Weekly[] }>();
    expect(twelve.outcomesPerWeek).toHaveLength(12);
    expect(twelve.outcomesPerWeek.at(-1)?.week).toBe('2026-W47');
    const bad = await sandbox.app.request('/api/analytics?weeks=0');
    expect(bad.status).toBe(400);
    expect(NOW).toBe(Date.parse('2026-11-22T12:00:00.000Z'));
  });
});
