/**
 * PATCH /api/lessons/:id with `ifUnchanged`: the values the fields had when an edit began. A field
 * someone else changed since is a 409 `conflict` naming it, and nothing is written; fields that
 * still hold those values are changed as usual.
 */
import { execFileSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createSandbox } from '../helpers/cli.js';
import type { Sandbox } from '../helpers/cli.js';
import { createAppSandbox } from '../helpers/http.js';

/** `lore serve` in its own process; resolves with the API's base URL once it printed it. */
function serve(sandbox: Sandbox): Promise<{ child: ChildProcess; url: string }> {
  const child = sandbox.spawn(['serve', '--port', '0']);
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const url = /dashboard at (http:\/\/\S+?)\/?(?:#\S*)?\s/.exec(out)?.[1];
      if (url) resolve({ child, url });
    });
    child.on('exit', (code) => reject(new Error(`lore serve exited ${code}:\n${out}`)));
  });
}

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

  // Two processes, one interleaving forced: the test holds the lesson's lock (a FIFO at the lock's
  // path, so the server's wait on it is a signal: it opens the FIFO to read who holds it), writes
  // the lesson as `lore update` would while the server waits, then hands the lock over. Checked
  // before the lock was taken, the PATCH overwrote that write; checked under it, it sees it.
  it('sees a write another process made under the lesson lock before the PATCH got it: 409, nothing lost', async () => {
    const sandbox = createSandbox();
    const id = sandbox.add(['--summary', 'Run pytest with CI=1', '--command', '\\bpytest\\b']);
    const { url } = await serve(sandbox);
    const locks = sandbox.inRepo('.lore', 'cache', 'locks');
    mkdirSync(locks, { recursive: true });
    const lock = `${locks}/${id}.lock`;
    execFileSync('mkfifo', [lock]);
    const patch = fetch(`${url}/api/lessons/${id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        summary: 'Run pytest with CI=1 (web)',
        ifUnchanged: { summary: 'Run pytest with CI=1' },
      }),
    });
    const holder = await open(lock, 'w'); // resolves once the server waits on the lock
    const file = sandbox.lessonFile(id);
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace('summary: Run pytest with CI=1', 'summary: Run pytest with CI=1 (cli)'));
    await holder.writeFile('999999999'); // a pid no process has: the server takes the lock over
    await holder.close();
    const answer = await patch;
    expect(answer.status).toBe(409);
    expect(((await answer.json()) as ErrorBody).error).toMatchObject({ code: 'conflict' });
    expect(readFileSync(file, 'utf8')).toContain('summary: Run pytest with CI=1 (cli)');
  });
});
