/**
 * PATCH /api/lessons/:id with `ifUnchanged`: the values the fields had when an edit began. A field
 * someone else changed since is a 409 `conflict` naming it, and nothing is written; fields that
 * still hold those values are changed as usual.
 */
import { describe, expect, it } from 'vitest';
import { createAppSandbox } from '../helpers/http.js';

type ErrorBody = { error: { code: string; message: string; hint: string | null } };

describe('PATCH /api/lessons/:id with ifUnchanged', () => {
  it('refuses a change to a field changed since the edit began, and writes nothing', async () => {
    const sandbox = createAppSandbox();
    const id = await sandbox.add({
      summary: 'Run pytest with CI=1',
      commands: ['\\bpytest\\b'],
      priority: 5,
    });
    const first = await sandbox.app.request(`/api/lessons/${id}`, {
      method: 'PATCH',
      body: { summary: 'Run pytest with CI=1 (first)', ifUnchanged: { summary: 'Run pytest with CI=1' } },
    });
    expect(first.status).toBe(200);

    const second = await sandbox.app.request(`/api/lessons/${id}`, {
      method: 'PATCH',
      body: {
        summary: 'Run pytest with CI=1 (second)',
        priority: 9,
        ifUnchanged: { summary: 'Run pytest with CI=1', priority: 5 },
      },
    });
    expect(second.status).toBe(409);
    expect(second.json<ErrorBody>().error).toMatchObject({ code: 'conflict' });
    expect(second.json<ErrorBody>().error.message).toContain('summary');

    const shown = (await sandbox.app.request(`/api/lessons/${id}`)).json<{
      lesson: { summary: string; priority: number };
    }>();
    expect(shown.lesson).toMatchObject({ summary: 'Run pytest with CI=1 (first)', priority: 5 });
  });

  it('takes an absent field as null and an empty list as none', async () => {
    const sandbox = createAppSandbox();
    const id = await sandbox.add({ summary: 'Run pytest with CI=1' });
    const patched = await sandbox.app.request(`/api/lessons/${id}`, {
      method: 'PATCH',
      body: { body: 'why', paths: ['tests/**'], ifUnchanged: { body: null, paths: [] } },
    });
    expect(patched.status).toBe(200);
    const refused = await sandbox.app.request(`/api/lessons/${id}`, {
      method: 'PATCH',
      body: { ifUnchanged: { nonsense: 1 } },
    });
    expect(refused.json<ErrorBody>().error.code).toBe('unknown-field');
  });
});
