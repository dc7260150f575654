import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Breadth } from '../../src/core/breadth/check-breadth.js';
import type { OutcomeRecord } from '../../src/core/feedback/outcome-record.js';
import type { HeldLessons } from '../../src/store/lessons/held-lessons.js';
import { createAppSandbox } from '../helpers/http.js';

type ErrorBody = {
  error: { code: string; message: string; hint: string | null; details: { breadth: Breadth } };
};
type Candidates = { candidates: { id: string; summary: string }[] };

describe('the breadth check through the HTTP API', () => {
  it('answers a lesson without a call cache with a note, and saves it', async () => {
    const { app } = createAppSandbox();
    const created = await app.request('/api/lessons', {
      method: 'POST',
      body: { summary: 'shell', tools: ['Bash'] },
    });
    expect(created.status).toBe(201);
    expect(created.json<{ breadth: Breadth }>().breadth).toMatchObject({ noCache: true, toolOnly: true });
  });

  it('refuses a too-broad trigger with 409 too-broad and its figures, unless force', async () => {
    const sandbox = createAppSandbox();
    await sandbox.scanFixture();
    const { app } = sandbox;
    // The fixture session has 21 calls, 3 of them Reads, none failing.
    const refused = await app.request('/api/lessons', {
      method: 'POST',
      body: { summary: 'reads', tools: ['Read'] },
    });
    expect(refused.status).toBe(409);
    const error = refused.json<ErrorBody>().error;
    expect(error.code).toBe('too-broad');
    expect(error.message).toContain('would have fired on 3 of your last 21 calls, 0 of them at this mistake');
    expect(error.hint).toContain('"force": true');
    expect(error.details.breadth).toMatchObject({ calls: 21, fires: 3, broad: true, toolOnly: true });
    expect((await app.request('/api/lessons')).json<{ total: number }>().total).toBe(0);

    const forced = await app.request('/api/lessons', {
      method: 'POST',
      body: { summary: 'reads', tools: ['Read'], force: true },
    });
    expect(forced.status).toBe(201);
    expect(forced.json<{ breadth: Breadth }>().breadth).toMatchObject({ fires: 3, broad: true });
    const bad = await app.request('/api/lessons', { method: 'POST', body: { summary: 'x', force: 'yes' } });
    expect(bad.status).toBe(400);

    // PATCH: a change of the trigger is checked the same way; other changes are not.
    const id = forced.json<{ id: string }>().id;
    const narrowed = await app.request(`/api/lessons/${id}`, {
      method: 'PATCH',
      body: { paths: ['docs/**'] },
    });
    expect(narrowed.status).toBe(200);
    expect(narrowed.json<{ breadth: Breadth }>().breadth).toMatchObject({ fires: 0, toolOnly: false });
    // Any fire is more than 1% of 21 calls: todo-app/** fires on two Reads, none at a mistake.
    const still = await app.request(`/api/lessons/${id}`, {
      method: 'PATCH',
      body: { paths: ['todo-app/**'] },
    });
    expect(still.status).toBe(409);
    expect(still.json<ErrorBody>().error.details.breadth).toMatchObject({ fires: 2, atMistake: 0 });
    const widened = await app.request(`/api/lessons/${id}`, { method: 'PATCH', body: { unset: ['paths'] } });
    expect(widened.status).toBe(409);
    const summary = await app.request(`/api/lessons/${id}`, { method: 'PATCH', body: { summary: 'reads!' } });
    expect(summary.status).toBe(200);
    expect(summary.json<{ breadth?: Breadth }>().breadth).toBeUndefined();
  });

  it('approve returns the figures, and refuses a broad edit of the trigger unless force', async () => {
    const sandbox = createAppSandbox();
    await sandbox.scanFixture();
    const { app } = sandbox;
    const { candidates } = (await app.request('/api/candidates')).json<Candidates>();
    const edit = candidates.find((c) => c.summary.includes('CLAUDE.md'));
    const task = candidates.find((c) => c.summary.includes('Task'));
    const approved = await app.request(`/api/candidates/${edit?.id}/approve`, { method: 'POST', body: {} });
    expect(approved.status).toBe(201);
    // Edit of markdown files waiting for its error ("File has not been read yet"): of the two edits
    // of CLAUDE.md it would have fired on the one that failed so, its mistake: not broad
    expect(approved.json<{ breadth: Breadth }>().breadth).toMatchObject({
      calls: 21,
      fires: 1,
      atMistake: 1,
      broad: false,
    });

    // scoped by tool alone, without the error it waited for
    const broad = { tools: ['Read'], tags: [], errors: [] };
    const refused = await app.request(`/api/candidates/${task?.id}/approve`, { method: 'POST', body: broad });
    expect(refused.status).toBe(409);
    expect(refused.json<ErrorBody>().error.code).toBe('too-broad');
    expect((await app.request('/api/candidates')).json<Candidates>().candidates).toHaveLength(1);
    const forced = await app.request(`/api/candidates/${task?.id}/approve`, {
      method: 'POST',
      body: { ...broad, force: true },
    });
    expect(forced.status).toBe(201);
  });

  it('lists lessons held for review with their repeats, and keeps or archives them', async () => {
    const sandbox = createAppSandbox();
    const held = await sandbox.add({
      summary: 'Install deps before pytest',
      mistake: 'No module named x',
      needsReview: true,
    });
    const other = await sandbox.add({ summary: 'Broad one', tools: ['Bash'], needsReview: true });
    await sandbox.add({ summary: 'Fine one', commands: ['^make'] });
    const outcome = (verdict: OutcomeRecord['verdict'], line: number): OutcomeRecord => ({
      injection: `s1/2026-11-0${line}T00:00:00Z/${held}`,
      lesson: held,
      session: 's1',
      injectedAt: `2026-11-0${line}T00:00:00Z`,
      judgedAt: '2026-11-10T00:00:00Z',
      form: 'after-call',
      verdict,
      linkedBy: 'call-id',
      evidence: { file: 'sessions/s1.jsonl', line: line * 10 },
    });
    const cache = join(sandbox.repo, '.lore', 'cache');
    mkdirSync(cache, { recursive: true });
    writeFileSync(
      join(cache, 'outcomes.jsonl'),
      [outcome('repeated', 1), outcome('repeated', 3), outcome('prevented', 2), outcome('repeated', 4)]
        .map((r) => JSON.stringify(r))
        .concat(['{not json', '{"lesson": 1}'])
        .join('\n'),
    );
    const { app } = sandbox;
    const list = (await app.request('/api/review/held')).json<HeldLessons>();
    expect(list.skippedOutcomes).toBe(2);
    expect(list.lessons.map((l) => l.id).sort()).toEqual([held, other].sort());
    const first = list.lessons.find((l) => l.id === held);
    expect(first?.outcomes).toMatchObject({ repeated: 3, prevented: 1, noise: 0 });
    expect(first?.repeated.map((r) => `${r.file}:${r.line}`)).toEqual([
      'sessions/s1.jsonl:40',
      'sessions/s1.jsonl:30',
      'sessions/s1.jsonl:10',
    ]);
    expect(list.lessons.find((l) => l.id === other)?.breadth).toMatchObject({
      toolOnly: true,
      noCache: true,
    });

    const kept = await app.request(`/api/lessons/${held}/keep`, { method: 'POST' });
    expect(kept.status).toBe(200);
    expect(kept.json<{ lesson: { needsReview: boolean } }>().lesson.needsReview).toBe(false);
    expect((await app.request(`/api/lessons/${other}`, { method: 'DELETE' })).status).toBe(200);
    expect((await app.request('/api/review/held')).json<HeldLessons>().lessons).toEqual([]);
    expect((await app.request('/api/lessons/nope/keep', { method: 'POST' })).status).toBe(404);
  });
});
