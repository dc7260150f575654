/**
 * Writes that reach across into the read-only org tier, with the built `lore` against a real org
 * server (PGlite) on loopback: votes on org lessons wait on this machine and go up with `lore push`,
 * once each; a local lesson supersedes an org lesson here only; the session start's background
 * pull has its own switch and its own rate limit.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer, listen } from '../../src/adapters/http/serve-http.js';
import type { OrgDb } from '../../src/store/org/org-db.js';
import { createSandbox } from '../helpers/cli.js';
import type { Sandbox } from '../helpers/cli.js';
import { runHookBundle } from '../helpers/hook.js';
import { bearer, openPgliteBackend, orgApp, orgName, tokenFor } from '../helpers/org.js';

type Shown = {
  lesson: { status: string; supersededBy?: string; supersedes: string[] };
  votes: { count: number };
};

describe('org tier writes from one machine', () => {
  let db: OrgDb;
  let close: () => Promise<void>;
  let server: Server;
  let url: string;

  beforeAll(async () => {
    const backend = await openPgliteBackend();
    db = backend.db;
    server = createHttpServer(orgApp(db));
    url = `http://127.0.0.1:${await listen(server, 0, '127.0.0.1')}/`;
    close = async () => {
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

  async function serverVotes(token: string, id: string): Promise<number> {
    const response = await fetch(`${url}api/org/index`, { headers: bearer(token) });
    const { lessons } = (await response.json()) as { lessons: Array<{ id: string; votes: number }> };
    return lessons.find((entry) => entry.id === id)?.votes ?? -1;
  }

  const pendingLines = (machine: Sandbox): string[] => {
    const path = join(machine.userTier, 'org', 'pending-votes.jsonl');
    return existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : [];
  };

  it('keeps votes on org lessons until a push the server acknowledged, merging two users and adding nothing on a repeat', async () => {
    const org = orgName();
    const curatorToken = await tokenFor(db, org, 'alice', 'curate');
    const alice = await engineer(curatorToken);
    const bob = await engineer(await tokenFor(db, org, 'bob', 'write'));
    const carl = await engineer(await tokenFor(db, org, 'carl', 'write'));
    const id = alice.add(['--tier', 'user', '--summary', 'Rotate the signing keys through vault only']);
    expect((await alice.runAsync(['push'])).code).toBe(0);
    expect((await bob.runAsync(['pull'])).code).toBe(0);
    expect((await carl.runAsync(['pull'])).code).toBe(0);

    // two votes of bob at once: both kept (O_APPEND under a lock), and counted here at once
    const [first, second] = await Promise.all([
      bob.runAsync(['upvote', id, '--model', 'opus', '--task', 'SEC-1', '--json']),
      bob.runAsync(['upvote', id, '--model', 'opus', '--task', 'SEC-2', '--json']),
    ]);
    expect([first.code, second.code]).toEqual([0, 0]);
    expect(first.json()).toMatchObject({ id, recorded: true });
    expect(
      pendingLines(bob)
        .map((line) => (JSON.parse(line) as { task: string }).task)
        .sort(),
    ).toEqual(['SEC-1', 'SEC-2']);
    expect((await bob.runAsync(['show', id, '--json'])).json<Shown>().votes.count).toBe(2);
    expect(await serverVotes(curatorToken, id)).toBe(0);

    const pushed = await bob.runAsync(['push', '--json']);
    expect(pushed.code).toBe(0);
    expect(pushed.json()).toMatchObject({ votes: { sent: 2, added: 2, pending: 0, error: null } });
    expect(pendingLines(bob)).toEqual([]);
    expect(await serverVotes(curatorToken, id)).toBe(2);
    const again = await bob.runAsync(['push', '--json']);
    expect(again.json()).toMatchObject({ votes: { sent: 0, added: 0, pending: 0 } });
    expect(await serverVotes(curatorToken, id)).toBe(2);

    // carl's vote for the same model and task is his own; the same vote sent twice counts once
    expect((await carl.runAsync(['upvote', id, '--model', 'opus', '--task', 'SEC-1'])).code).toBe(0);
    expect((await carl.runAsync(['push', '--json'])).json()).toMatchObject({ votes: { sent: 1, added: 1 } });
    writeFileSync(
      join(carl.userTier, 'org', 'pending-votes.jsonl'),
      `${JSON.stringify({ id, model: 'opus', task: 'SEC-1', at: new Date().toISOString() })}\n`,
    );
    expect((await carl.runAsync(['push', '--json'])).json()).toMatchObject({ votes: { sent: 1, added: 0 } });
    expect(await serverVotes(curatorToken, id)).toBe(3);

    // after a pull the server's three votes replace bob's two local ones
    expect((await bob.runAsync(['pull'])).code).toBe(0);
    expect((await bob.runAsync(['show', id, '--json'])).json<Shown>().votes.count).toBe(3);
  }, 120_000);

  it('keeps a vote cast offline until the server answers, and drops one for a lesson the server no longer has', async () => {
    const org = orgName();
    const token = await tokenFor(db, org, 'dana', 'curate');
    const dana = await engineer(token);
    const id = dana.add(['--tier', 'user', '--summary', 'Pin the base image digest in every Dockerfile']);
    expect((await dana.runAsync(['push'])).code).toBe(0);
    expect((await dana.runAsync(['pull'])).code).toBe(0);
    // the user-tier original would shadow the org copy (project > user > org): vote from a machine without it
    const erin = await engineer(await tokenFor(db, org, 'erin', 'write'));
    expect((await erin.runAsync(['pull'])).code).toBe(0);
    erin.run(['remote', 'add', 'acme', 'http://127.0.0.1:9/']);
    expect((await erin.runAsync(['upvote', id, '--model', 'codex', '--task', 'OPS-7'])).code).toBe(0);
    const offline = await erin.runAsync(['push', '--json']);
    expect(offline.code).toBe(1);
    expect(offline.stderr + offline.stdout).toContain('cannot reach');
    expect(pendingLines(erin)).toHaveLength(1);
    expect((await erin.runAsync(['show', id, '--json'])).json<Shown>().votes.count).toBe(1);

    erin.run(['remote', 'add', 'acme', url]);
    writeFileSync(
      join(erin.userTier, 'org', 'pending-votes.jsonl'),
      `${readFileSync(join(erin.userTier, 'org', 'pending-votes.jsonl'), 'utf8')}${JSON.stringify({ id: 'zzzzzzzzzz', model: 'codex', task: 'OPS-8', at: new Date().toISOString() })}\n`,
    );
    // a vote the server refuses as such (half a surrogate pair, as an MCP client may send) is
    // dropped too, and the one cast after it still goes
    const upvote = await erin.runAsync(['upvote', id, '--model', 'gemini', '--task', 'OPS-9']);
    expect(upvote.code).toBe(0);
    const lines = pendingLines(erin);
    writeFileSync(
      join(erin.userTier, 'org', 'pending-votes.jsonl'),
      [
        ...lines.slice(0, -1),
        JSON.stringify({ id, model: 'codex', task: 'OPS-\ud800', at: new Date().toISOString() }),
        lines.at(-1),
        '',
      ].join('\n'),
    );
    const online = await erin.runAsync(['push', '--json']);
    expect(online.code).toBe(0);
    expect(online.json()).toMatchObject({
      votes: {
        sent: 2,
        added: 2,
        pending: 0,
        dropped: [
          { id: 'zzzzzzzzzz', model: 'codex', task: 'OPS-8' },
          { id, model: 'codex', task: 'OPS-\ud800', reason: expect.stringContaining('surrogate') },
        ],
      },
    });
    expect(pendingLines(erin)).toEqual([]);
    expect(await serverVotes(token, id)).toBe(2);
  }, 120_000);

  it('drops the votes waiting on the lessons of a remote that is removed, and says so', async () => {
    const org = orgName();
    const gail = await engineer(await tokenFor(db, org, 'gail', 'curate'));
    const id = gail.add(['--tier', 'user', '--summary', 'Run terraform plan before apply in CI']);
    expect((await gail.runAsync(['push'])).code).toBe(0);
    const hank = await engineer(await tokenFor(db, org, 'hank', 'write'));
    expect((await hank.runAsync(['pull'])).code).toBe(0);
    expect((await hank.runAsync(['upvote', id, '--model', 'codex', '--task', 'OPS-9'])).code).toBe(0);
    expect(pendingLines(hank)).toHaveLength(1);

    const removed = await hank.runAsync(['remote', 'remove', 'acme', '--json']);
    expect(removed.code).toBe(0);
    expect(removed.json()).toMatchObject({
      lessons: [id],
      droppedVotes: [{ id, model: 'codex', task: 'OPS-9' }],
    });
    expect(pendingLines(hank)).toEqual([]);
  });

  it('lets a local lesson supersede an org lesson on this machine only, and refuses to supersede one org lesson by another', async () => {
    const org = orgName();
    const token = await tokenFor(db, org, 'fay', 'curate');
    const fay = await engineer(token);
    const orgId = fay.add(['--tier', 'user', '--summary', 'Deploy with the old release script']);
    const otherOrgId = fay.add(['--tier', 'user', '--summary', 'Tag every release in git']);
    expect((await fay.runAsync(['push'])).code).toBe(0);
    const gus = await engineer(await tokenFor(db, org, 'gus', 'write'));
    expect((await gus.runAsync(['pull'])).code).toBe(0);
    const mine = gus.add(['--tier', 'user', '--summary', 'Deploy with the release pipeline']);

    const both = await gus.runAsync(['supersede', otherOrgId, '--with', orgId]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('both are organisation lessons');
    expect(both.stderr).toContain(`/api/org/lessons/${otherOrgId}/supersede`);

    const done = await gus.runAsync(['supersede', orgId, '--with', mine, '--json']);
    expect(done.code).toBe(0);
    expect((await gus.runAsync(['show', orgId, '--json'])).json<Shown>().lesson).toMatchObject({
      status: 'superseded',
      supersededBy: mine,
    });
    expect((await gus.runAsync(['show', mine, '--json'])).json<Shown>().lesson.supersedes).toEqual([orgId]);
    const active = gus.run(['list', '--tier', 'org', '--json']).json<{ lessons: Array<{ id: string }> }>();
    expect(active.lessons.map((l) => l.id)).toEqual([otherOrgId]);
    // the server still offers it as it was
    const fetched = await fetch(`${url}api/org/fetch`, {
      method: 'POST',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      body: JSON.stringify({ ids: [orgId] }),
    });
    const [served] = ((await fetched.json()) as { lessons: Array<{ lesson: { status: string } }> }).lessons;
    expect(served?.lesson.status).toBe('active');

    // a new version pulled from the server stays superseded here
    expect((await fay.runAsync(['update', orgId, '--priority', '8'])).code).toBe(0);
    expect((await fay.runAsync(['push'])).code).toBe(0);
    expect((await gus.runAsync(['pull', '--json'])).json()).toMatchObject({ updated: [orgId] });
    expect((await gus.runAsync(['show', orgId, '--json'])).json<Shown>().lesson).toMatchObject({
      status: 'superseded',
      supersededBy: mine,
    });

    // feedback on an org lesson is kept here; the confidence stays the server's
    const before = (await gus.runAsync(['show', otherOrgId, '--json'])).json<{
      lesson: { confidence: number };
    }>();
    const judged = await gus.runAsync(['feedback', otherOrgId, '--not-helpful', '--task', 'REL-1', '--json']);
    expect(judged.code).toBe(0);
    expect(judged.json()).toMatchObject({
      recorded: true,
      confidence: { before: before.lesson.confidence, after: before.lesson.confidence },
    });

    // the reverse: an org lesson replaces a local one, and only the local one changes
    const old = gus.add(['--tier', 'user', '--summary', 'Tag releases by hand']);
    const orgYaml = readFileSync(join(gus.userTier, 'org', 'lessons', otherOrgId, 'lesson.yaml'), 'utf8');
    expect((await gus.runAsync(['supersede', old, '--with', otherOrgId])).code).toBe(0);
    expect((await gus.runAsync(['show', old, '--json'])).json<Shown>().lesson).toMatchObject({
      status: 'superseded',
      supersededBy: otherOrgId,
    });
    expect(readFileSync(join(gus.userTier, 'org', 'lessons', otherOrgId, 'lesson.yaml'), 'utf8')).toBe(
      orgYaml,
    );
  }, 120_000);

  it('starts the background pull at session start on its own switch, at most once per interval', async () => {
    const org = orgName();
    const machine = await engineer(await tokenFor(db, org, 'hal', 'read'));
    const stamp = join(machine.userTier, 'org', 'cache', 'pull', 'background.stamp');
    // a manifest first, so the hook starts no rebuilder that would outlive the test
    expect(machine.run(['sync']).code).toBe(0);
    const sessionStart = (env: Record<string, string>) =>
      runHookBundle(
        machine,
        { session_id: 'pull-test', cwd: machine.repo, hook_event_name: 'SessionStart', source: 'startup' },
        { env: { LORE_DEBUG: '1', ...env } },
      );
    const waitForStamp = async () => {
      for (let i = 0; i < 100 && !existsSync(stamp); i += 1) await new Promise((r) => setTimeout(r, 100));
      return statSync(stamp, { throwIfNoEntry: false })?.mtimeMs;
    };

    expect(sessionStart({ LORE_NO_PULL: '1', LORE_NO_SCAN: '1' }).stdout.trim()).not.toBe('');
    // the hook's own debug line says why nothing started
    const debugLog = () => readFileSync(join(machine.repo, '.lore', 'cache', 'hook-debug.log'), 'utf8');
    const lastDebug = () => {
      const lines = debugLog().trim().split('\n');
      return JSON.parse(lines.at(-1) ?? '{}') as { pull?: string };
    };
    expect(lastDebug().pull).toBe('LORE_NO_PULL=1');
    expect(existsSync(stamp)).toBe(false);

    // the scan switched off, the pull still starts
    sessionStart({ LORE_NO_PULL: '', LORE_NO_SCAN: '1' });
    expect(lastDebug().pull).toBe('started');
    const first = await waitForStamp();
    expect(first).toBeDefined();
    sessionStart({ LORE_NO_PULL: '', LORE_NO_SCAN: '1' });
    expect(lastDebug().pull).toBe('ran recently');
    expect(statSync(stamp).mtimeMs).toBe(first);
    const cli = machine.run(['pull', '--background', '--json']);
    expect(cli.json()).toMatchObject({ started: false, reason: 'ran-recently' });
    expect(
      machine.run(['pull', '--background', '--json'], { env: { LORE_NO_PULL: '1' } }).json(),
    ).toMatchObject({
      started: false,
      reason: 'LORE_NO_PULL=1',
    });
    // the pull it started ran to its end (its last words are in its log)
    const log = join(machine.userTier, 'org', 'cache', 'pull', 'background.log');
    const finished = () => existsSync(log) && readFileSync(log, 'utf8').includes('pulled from acme');
    for (let i = 0; i < 200 && !finished(); i += 1) await new Promise((r) => setTimeout(r, 100));
    expect(readFileSync(log, 'utf8')).toContain('pulled from acme: 0 organisation lesson(s)');
  }, 120_000);
});
