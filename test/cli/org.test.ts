/**
 * The organisation tier end to end with the built `lore`: `lore serve --org` on the embedded
 * store (PGlite) as a process, and the client verbs (remote, login, push, pull) of two engineers'
 * machines against a server over real HTTP on loopback, the hook answering from the pulled copy
 * once the server is gone.
 */
import { statSync } from 'node:fs';
import type { Server } from 'node:http';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createHttpServer, listen } from '../../src/adapters/http/serve-http.js';
import type { OrgDb } from '../../src/store/org/org-db.js';
import { createSandbox, exited, waitForExit } from '../helpers/cli.js';
import type { Sandbox } from '../helpers/cli.js';
import { runHookBundle } from '../helpers/hook.js';
import { openPgliteBackend, orgApp, orgName, tokenFor } from '../helpers/org.js';

function startServe(
  sandbox: Sandbox,
): Promise<{ child: ChildProcess; url: string; out: () => string; err: () => string }> {
  const child = sandbox.spawn(['serve', '--org', '--port', '0']);
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let out = '';
  let err = '';
  return new Promise((resolve, reject) => {
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const url = /dashboard at (http:\/\/\S+)/.exec(out)?.[1];
      if (url) resolve({ child, url, out: () => out, err: () => err });
    });
    child.on('exit', (code) => reject(new Error(`lore serve --org exited ${code}:\n${out}\n${err}`)));
  });
}

describe('lore serve --org', () => {
  it('starts on the embedded store with a first admin token, keeps token commands off the held store, and never logs a token', async () => {
    const admin = createSandbox({ loreHome: true });
    const server = await startServe(admin);
    const first = /first admin token \(user admin, shown once\): (lore_\S+)/.exec(
      server.out(),
    )?.[1] as string;
    expect(first).toMatch(/^lore_/);
    expect(server.err()).toMatch(/organisation store: embedded PGlite .*PostgreSQL/);

    const held = admin.run(['org', 'token', 'create', 'alice', '--role', 'write']);
    expect(held.code).toBe(1);
    expect(held.stderr).toContain('in use by process');
    expect(held.stderr).toContain('--remote NAME');

    expect(admin.run(['remote', 'add', 'here', server.url]).code).toBe(0);
    const login = admin.run(['login', 'here'], { input: `${first}\n` });
    expect(login.stdout).toContain('as admin of default, role admin');
    expect(statSync(`${admin.userTier}/credentials.json`).mode & 0o777).toBe(0o600);
    const made = admin.run(['org', 'token', 'create', 'alice', '--role', 'write', '--remote', 'here']);
    const alice = made.stdout.trim();
    expect(alice).toMatch(/^lore_/);
    const revoked = admin.run(['org', 'token', 'revoke', 'alice', '--remote', 'here']);
    expect(revoked.stdout).toContain('revoked 1 token(s) of alice');
    const refused = await fetch(`${server.url}api/org/whoami`, {
      headers: { authorization: `Bearer ${alice}` },
    });
    expect(refused.status).toBe(401);

    server.child.kill('SIGTERM');
    expect(await exited(server.child)).toEqual({ code: 0, signal: null });
    expect(server.err()).toContain('GET /api/org/whoami 401');
    expect(server.err()).not.toContain(first);
    expect(server.err()).not.toContain(alice);
    // the store is free again: token commands work on it directly
    const direct = admin.run(['org', 'token', 'create', 'bob', '--role', 'read', '--json']);
    expect(direct.json()).toMatchObject({ org: 'default', user: 'bob', role: 'read' });
  }, 120_000);
});

describe('lore pull --background', () => {
  it('starts only with a remote set up, at most once per interval', async () => {
    const machine = createSandbox({ loreHome: true });
    expect(machine.run(['pull', '--background', '--json']).json()).toEqual({
      started: false,
      reason: 'no-remote',
    });
    machine.run(['remote', 'add', 'gone', 'http://127.0.0.1:9/']);
    const first = machine.run(['pull', '--background', '--json']).json<{ started: boolean; pid: number }>();
    expect(first.started).toBe(true);
    const second = machine
      .run(['pull', '--background', '--json'])
      .json<{ started: boolean; reason: string }>();
    expect(second).toMatchObject({ started: false, reason: 'ran-recently' });
    const again = machine.run(['pull', '--background', '--json'], {
      env: { LORE_PULL_INTERVAL_MINUTES: '0' },
    });
    expect(again.json<{ started: boolean }>().started).toBe(true);
    expect(machine.run(['pull', '--background'], { env: { LORE_PULL_INTERVAL_MINUTES: 'soon' } }).code).toBe(
      2,
    );
    // the detached pulls end before the sandbox goes (each fails: the remote has no token)
    for (const { pid } of [first, again.json<{ pid: number }>()] as { pid?: number }[])
      if (pid !== undefined) expect(await waitForExit(pid)).toBe(true);
  });
});

describe('lore remote, login, push and pull', () => {
  let db: OrgDb;
  let close: () => Promise<void>;
  let server: Server;
  let url: string;

  beforeAll(async () => {
    const backend = await openPgliteBackend();
    db = backend.db;
    server = createHttpServer(orgApp(db));
    url = `http://127.0.0.1:${await listen(server, 0, '127.0.0.1')}/`;
    let closed = false;
    close = async () => {
      if (closed) return;
      closed = true;
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await backend.close();
    };
  }, 60_000);
  afterAll(async () => close?.());

  async function engineer(token: string): Promise<Sandbox> {
    const machine = createSandbox({ loreHome: true });
    expect((await machine.runAsync(['remote', 'add', 'acme', url])).code).toBe(0);
    expect((await machine.runAsync(['login', 'acme', '--token', token])).code).toBe(0);
    return machine;
  }

  it('refuses a push over a newer server version until the engineer pulls, and keeps project lessons home unless asked', async () => {
    const org = orgName();
    const alice = await engineer(await tokenFor(db, org, 'alice', 'curate'));
    const carl = await engineer(await tokenFor(db, org, 'carl', 'curate'));
    const id = alice.add(['--tier', 'user', '--summary', 'Run the migrations before the tests']);
    expect((await alice.runAsync(['push'])).code).toBe(0);
    // carl edits the lesson on the server: he pulls it, then pushes his own copy over it
    await carl.runAsync(['pull']);
    const { updateOrgLesson } = await import('../../src/store/org/org-lesson-writes.js');
    const { getOrgLesson } = await import('../../src/store/org/org-lessons.js');
    const { authenticate } = await import('../../src/store/org/org-tokens.js');
    const who = (await authenticate(db, await tokenFor(db, org, 'carl', 'curate')))!;
    const current = (await getOrgLesson(db, who.orgId, id))!;
    await updateOrgLesson(db, who, { ...current.lesson, summary: 'Run the migrations before any test' }, 1);

    expect((await alice.runAsync(['update', id, '--priority', '8'])).code).toBe(0);
    const stale = await alice.runAsync(['push']);
    expect(stale.code).toBe(1);
    expect(stale.stdout).toMatch(/conflict: the organisation has version 2 .*lore pull/);
    expect((await alice.runAsync(['pull'])).code).toBe(0);
    const retried = await alice.runAsync(['push', '--json']);
    expect(retried.json<{ results: unknown[] }>().results).toEqual([
      { id, outcome: 'updated', version: 3, state: 'accepted' },
    ]);

    const projectLesson = alice.add(['--summary', 'Our repo pins node 20']);
    const home = await alice.runAsync(['push', projectLesson]);
    expect(home.code).toBe(2);
    expect(home.stderr).toContain('--from-project');
    const shared = await alice.runAsync([
      'push',
      projectLesson,
      '--from-project',
      '--project',
      'billing',
      '--json',
    ]);
    expect(shared.json()).toMatchObject({
      project: 'billing',
      results: [{ id: projectLesson, outcome: 'created' }],
    });
  }, 120_000);
  it("brings one engineer's lesson to another's hook, which keeps denying once the server is gone (last: it stops the server)", async () => {
    const org = orgName();
    const alice = await engineer(await tokenFor(db, org, 'alice', 'curate'));
    const bob = await engineer(await tokenFor(db, org, 'bob', 'read'));
    const id = alice.add([
      '--tier',
      'user',
      '--summary',
      'Never run terraform apply against production by hand',
      '--command',
      'terraform\\s+apply',
      '--type',
      'guard',
    ]);
    const pushed = await alice.runAsync(['push', '--json']);
    expect(pushed.json<{ results: unknown[] }>().results).toEqual([
      { id, outcome: 'created', version: 1, state: 'accepted' },
    ]);

    expect((await alice.runAsync(['upvote', id, '--model', 'opus', '--task', 'infra-12'])).code).toBe(0);
    expect((await alice.runAsync(['push', '--json'])).json()).toMatchObject({
      results: [{ id, outcome: 'unchanged' }],
    });
    const pulled = await bob.runAsync(['pull', '--json']);
    expect(pulled.json()).toMatchObject({ added: [id], total: 1 });
    const listed = bob
      .run(['list', '--tier', 'org', '--json'])
      .json<{ lessons: Array<{ id: string; tier: string }> }>();
    expect(listed.lessons.map((l) => [l.id, l.tier])).toEqual([[id, 'org']]);
    const shown = (await bob.runAsync(['show', id, '--json'])).json<{ votes: { count: number } }>();
    expect(shown.votes.count).toBe(1);
    const deny = () =>
      runHookBundle(bob, {
        session_id: 'org-test',
        cwd: bob.repo,
        hook_event_name: 'PreToolUse',
        tool_name: 'Bash',
        tool_input: { command: 'terraform apply -auto-approve' },
        tool_use_id: 't1',
      });
    expect(deny().stdout).toContain('"permissionDecision":"deny"');
    expect((await bob.runAsync(['update', id, '--priority', '9'])).stderr).toContain('read-only');

    // a second pull fetches nothing; the server gone, reads, the hook and pull's message still hold
    expect((await bob.runAsync(['pull', '--json'])).json()).toMatchObject({
      added: [],
      updated: [],
      unchanged: 1,
    });
    await close();
    expect(deny().stdout).toContain('"permissionDecision":"deny"');
    expect((await bob.runAsync(['search', 'terraform', '--json'])).stdout).toContain(id);
    const unreachable = await bob.runAsync(['pull']);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain('keep working from the last `lore pull`');
  }, 120_000);
});
