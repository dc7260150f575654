// The review queue of the HTTP API carries the lessons held by their outcomes (with the transcript
// lines of the repeats) and the guard proposals; POST /api/lessons/:id/keep puts one back to work.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAppSandbox } from '../helpers/http.js';

type Queue = {
  candidates: unknown[];
  held: { id: string; notHelpful: number; repeats: { file: string; line: number }[]; keep: string }[];
  guardProposals: { id: string; repeats: number; command: string }[];
};

describe('HTTP API: lessons held by their outcomes', () => {
  it('lists a held lesson with its repeats and keeps it on request', async () => {
    const { app, repo } = createAppSandbox();
    const created = await app.request('/api/lessons', {
      method: 'POST',
      body: { summary: 'pytest is not on PATH here: run python -m pytest', commands: ['^pytest\\b'] },
    });
    const { id } = created.json<{ id: string }>();
    await app.request(`/api/lessons/${id}`, { method: 'PATCH', body: { needsReview: true } });
    const cache = join(repo, '.lore', 'cache');
    mkdirSync(cache, { recursive: true });
    const repeat = (n: number) =>
      JSON.stringify({
        injection: `s${n}/2026-11-20T10:00:00.000Z/${id}`,
        lesson: id,
        session: `s${n}`,
        injectedAt: '2026-11-20T10:00:00.000Z',
        judgedAt: '2026-11-21T10:00:00.000Z',
        form: 'after-call',
        verdict: 'repeated',
        linkedBy: 'call-id',
        evidence: { file: `/t/s${n}.jsonl`, line: 7 },
      });
    writeFileSync(join(cache, 'outcomes.jsonl'), `${[1, 2, 3].map(repeat).join('\n')}\n`);
    writeFileSync(
      join(cache, 'outcome-holds.jsonl'),
      `${JSON.stringify({ lesson: id, action: 'held', at: '2026-11-21T10:00:00.000Z', helpful: 0, notHelpful: 3 })}\n`,
    );

    const queue = (await app.request('/api/candidates')).json<Queue>();
    expect(queue.held).toEqual([
      expect.objectContaining({
        id,
        notHelpful: 3,
        repeats: [1, 2, 3].map((n) => expect.objectContaining({ file: `/t/s${n}.jsonl`, line: 7 })),
        keep: `lore review --keep ${id}`,
      }),
    ]);
    expect(queue.guardProposals).toEqual([
      { id, summary: expect.any(String), repeats: 3, command: `lore update ${id} --type guard` },
    ]);

    const kept = await app.request(`/api/lessons/${id}/keep`, { method: 'POST' });
    expect([kept.status, kept.json()]).toEqual([
      200,
      { id, tier: 'project', wasHeld: true, lesson: expect.objectContaining({ id, needsReview: false }) },
    ]);
    expect((await app.request('/api/candidates')).json<Queue>().held).toEqual([]);
    const shown = (await app.request(`/api/lessons/${id}`)).json<{ lesson: { needsReview: boolean } }>();
    expect(shown.lesson.needsReview).toBe(false);
  });
});
