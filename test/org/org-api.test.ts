/**
 * The organisation routes' contract, run on both databases: embedded PGlite and a real
 * PostgreSQL server this suite starts itself. Each test works in organisations of its own, so
 * the tests share one database the way tenants share a server.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../../src/adapters/http/create-app.js';
import { migrate, MIGRATIONS } from '../../src/store/org/org-migrations.js';
import {
  bearer,
  makeLesson,
  openPgliteBackend,
  openPostgresBackend,
  orgApp,
  orgName,
  tokenFor,
} from '../helpers/org.js';
import type { Backend } from '../helpers/org.js';

type Opened = Backend | { skip: string };
const BACKENDS: Array<[string, () => Promise<Opened>]> = [
  ['pglite', openPgliteBackend],
  ['postgresql', openPostgresBackend],
];

type PushBody = {
  results: Array<{ id: string; outcome: string; version: number; state: string; message?: string }>;
};
type IndexBody = { lessons: Array<{ id: string; version: number; votes: number }> };
type ErrorBody = { error: { code: string; message: string; hint: string | null } };

describe.each(BACKENDS)('organisation API on %s', (_name, open) => {
  let backend: Backend | undefined;
  let skipped: string | undefined;
  let app: App;

  beforeAll(async () => {
    const opened = await open();
    if ('skip' in opened) {
      skipped = opened.skip;
      process.stderr.write(`org API on ${_name}: skipped: ${opened.skip}\n`);
      return;
    }
    backend = opened;
    app = orgApp(opened.db);
  }, 180_000);
  afterAll(async () => backend?.close());
  beforeEach((ctx) => {
    if (skipped) ctx.skip();
  });

  const db = () => (backend as Backend).db;

  async function team(roles: Record<string, 'read' | 'write' | 'curate' | 'admin'>) {
    const org = orgName();
    const tokens: Record<string, string> = {};
    for (const [user, role] of Object.entries(roles)) tokens[user] = await tokenFor(db(), org, user, role);
    return { org, tokens };
  }

  async function push(token: string, lessons: unknown[], extra: Record<string, unknown> = {}) {
    return app.request('/api/org/lessons', {
      method: 'POST',
      headers: bearer(token),
      body: { lessons: lessons.map((lesson) => ({ lesson })), ...extra },
    });
  }

  it('migrates once, and refuses a database whose schema is newer than it knows', async () => {
    const again = await migrate(db());
    expect(again.applied).toEqual([]);
    expect(again.to).toBe(MIGRATIONS.length);
    const newer = [...MIGRATIONS, { version: 99, name: 'from the future', sql: 'SELECT 1;' }];
    await migrate(db(), newer);
    await expect(migrate(db())).rejects.toThrow(/newer than this lore knows/);
    await db().query('DELETE FROM lore_schema WHERE version = 99');
  });

  it('refuses requests without a token, with an unknown token, and from a revoked token at once', async () => {
    const { org, tokens } = await team({ ann: 'read' });
    expect((await app.request('/api/org/index')).status).toBe(401);
    expect((await app.request('/api/org/index', { headers: bearer('lore_made-up') })).status).toBe(401);
    expect((await app.request('/api/org/index', { headers: bearer(tokens.ann!) })).status).toBe(200);
    const { revokeTokens } = await import('../../src/store/org/org-tokens.js');
    expect(await revokeTokens(db(), { org, user: 'ann', actor: 'test' })).toBe(1);
    const refused = await app.request('/api/org/index', { headers: bearer(tokens.ann!) });
    expect(refused.status).toBe(401);
    expect(refused.json<ErrorBody>().error.message).toMatch(/revoked/);
  });

  it('lets a read token read but not write, vote, review or administer', async () => {
    const { tokens } = await team({ reader: 'read', curator: 'curate' });
    const lesson = makeLesson();
    expect((await push(tokens.curator!, [lesson])).status).toBe(200);
    const refusedPush = await push(tokens.reader!, [makeLesson()]);
    expect(refusedPush.status).toBe(403);
    expect(refusedPush.json<ErrorBody>().error.hint).toMatch(/--role write/);
    const refusedVote = await app.request(`/api/org/lessons/${lesson.id}/votes`, {
      method: 'POST',
      headers: bearer(tokens.reader!),
      body: { model: 'm', task: 't' },
    });
    expect(refusedVote.status).toBe(403);
    const refusedAccept = await app.request(`/api/org/lessons/${lesson.id}/accept`, {
      method: 'POST',
      headers: bearer(tokens.reader!),
    });
    expect(refusedAccept.status).toBe(403);
    expect((await app.request('/api/org/audit', { headers: bearer(tokens.curator!) })).status).toBe(403);
    const read = await app.request(`/api/org/lessons/${lesson.id}`, { headers: bearer(tokens.reader!) });
    expect(read.json<{ lesson: { summary: string } }>().lesson.summary).toBe(lesson.summary);
  });

  it('shows an organisation nothing of another', async () => {
    const a = await team({ alice: 'admin' });
    const b = await team({ bob: 'admin' });
    const lesson = makeLesson({ summary: 'Never run terraform apply against production by hand' });
    await push(a.tokens.alice!, [lesson]);
    const asB = bearer(b.tokens.bob!);
    expect((await app.request('/api/org/index', { headers: asB })).json<IndexBody>().lessons).toEqual([]);
    expect((await app.request(`/api/org/lessons/${lesson.id}`, { headers: asB })).status).toBe(404);
    expect(
      (await app.request('/api/org/search?q=terraform', { headers: asB })).json<{ results: unknown[] }>()
        .results,
    ).toEqual([]);
    const fetched = await app.request('/api/org/fetch', {
      method: 'POST',
      headers: asB,
      body: { ids: [lesson.id] },
    });
    expect(fetched.json<{ lessons: unknown[] }>().lessons).toEqual([]);
    const vote = await app.request(`/api/org/lessons/${lesson.id}/votes`, {
      method: 'POST',
      headers: asB,
      body: { model: 'm', task: 't' },
    });
    expect(vote.status).toBe(404);
    expect(
      (await app.request('/api/org/lessons', { headers: asB })).json<{ lessons: unknown[] }>().lessons,
    ).toEqual([]);
    // the same id in another organisation is another lesson
    const theirs = await push(b.tokens.bob!, [{ ...lesson, summary: 'B has its own copy' }]);
    expect(theirs.json<PushBody>().results[0]?.outcome).toBe('created');
  });

  it("queues a writer's new lessons for a curator, and pulls only accepted ones", async () => {
    const { tokens } = await team({ wes: 'write', cora: 'curate' });
    const proposal = makeLesson();
    const pushed = await push(tokens.wes!, [proposal]);
    expect(pushed.json<PushBody>().results[0]).toMatchObject({
      outcome: 'created',
      state: 'proposed',
      version: 1,
    });
    const index = () =>
      app
        .request('/api/org/index', { headers: bearer(tokens.wes!) })
        .then((r) => r.json<IndexBody>().lessons);
    expect(await index()).toEqual([]);
    const queue = await app.request('/api/org/lessons?state=proposed', { headers: bearer(tokens.cora!) });
    expect(queue.json<{ lessons: Array<{ id: string; proposedBy: string }> }>().lessons).toEqual([
      expect.objectContaining({ id: proposal.id, proposedBy: 'wes' }),
    ]);
    const accepted = await app.request(`/api/org/lessons/${proposal.id}/accept`, {
      method: 'POST',
      headers: bearer(tokens.cora!),
    });
    expect(accepted.json<{ state: string; version: number }>()).toMatchObject({
      state: 'accepted',
      version: 2,
    });
    expect(await index()).toEqual([{ id: proposal.id, version: 2, votes: 0 }]);
  });

  it('refuses an update at a stale version with how to pull and retry, and lets exactly one of two racing writers win', async () => {
    const { tokens } = await team({ cora: 'curate', carl: 'curate' });
    const lesson = makeLesson();
    await push(tokens.cora!, [lesson]);
    const put = (token: string, summary: string, version: number) =>
      app.request(`/api/org/lessons/${lesson.id}`, {
        method: 'PUT',
        headers: bearer(token),
        body: { version, lesson: { ...lesson, summary } },
      });
    const racing = await Promise.all(
      Array.from({ length: 8 }, (_, i) => put(i % 2 ? tokens.cora! : tokens.carl!, `Edit number ${i}`, 1)),
    );
    expect(racing.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    const stale = racing.find((r) => r.status === 409)!.json<ErrorBody>();
    expect(stale.error.code).toBe('stale-version');
    expect(stale.error.hint).toMatch(/lore pull.*push again/);
    expect(
      (await put(tokens.cora!, 'Edit at the current version', 2)).json<{ version: number }>().version,
    ).toBe(3);
    // a push of an existing lesson without the version it was based on is a conflict, not an overwrite
    const blind = await push(tokens.carl!, [{ ...lesson, summary: 'A blind overwrite' }]);
    expect(blind.json<PushBody>().results[0]).toMatchObject({ outcome: 'conflict', version: 3 });
    const same = await push(tokens.carl!, [{ ...lesson, summary: 'Edit at the current version' }]);
    expect(same.json<PushBody>().results[0]).toMatchObject({ outcome: 'unchanged', version: 3 });
  });

  it("refuses a writer's PUT on a lesson not its own with 403 and the role needed, and never creates a lesson by PUT", async () => {
    const { tokens } = await team({ wendy: 'write', cora: 'curate' });
    const lesson = makeLesson();
    await push(tokens.cora!, [lesson]);
    const put = (token: string, body: object, id = lesson.id) =>
      app.request(`/api/org/lessons/${id}`, { method: 'PUT', headers: bearer(token), body });
    const refused = await put(tokens.wendy!, { version: 1, lesson: { ...lesson, summary: 'edited' } });
    expect(refused.status).toBe(403);
    expect(refused.json<ErrorBody>().error).toMatchObject({ code: 'forbidden' });
    expect(refused.json<ErrorBody>().error.hint).toMatch(/--role curate/);

    const missing = makeLesson();
    const claimed = await put(tokens.wendy!, { version: 7, lesson: missing }, missing.id);
    expect(claimed.status).toBe(404);
    expect(claimed.json<ErrorBody>().error.hint).toMatch(/POST \/api\/org\/lessons/);
    const asCurator = await put(tokens.cora!, { version: 1, lesson: missing }, missing.id);
    expect(asCurator.status).toBe(404);
    expect(
      (await app.request(`/api/org/lessons/${missing.id}`, { headers: bearer(tokens.cora!) })).status,
    ).toBe(404);
  });

  it('merges votes from many users without loss, once per lesson, user, model and task', async () => {
    const users = { u1: 'write', u2: 'write', u3: 'write' } as const;
    const { tokens } = await team({ ...users, cora: 'curate' });
    const lesson = makeLesson();
    await push(tokens.cora!, [lesson]);
    const vote = (token: string, model: string, task: string) =>
      app.request(`/api/org/lessons/${lesson.id}/votes`, {
        method: 'POST',
        headers: bearer(token),
        body: { model, task },
      });
    const sent = [];
    for (const user of Object.keys(users))
      for (const model of ['opus', 'sonnet'])
        for (const repeat of [1, 2]) sent.push(vote(tokens[user]!, model, `task-${repeat % 1}`));
    const answers = await Promise.all(sent);
    expect(answers.every((r) => r.status === 200)).toBe(true);
    expect(answers.filter((r) => r.json<{ added: boolean }>().added)).toHaveLength(6);
    const got = await app.request(`/api/org/lessons/${lesson.id}`, { headers: bearer(tokens.u1!) });
    expect(got.json<{ votes: unknown[]; version: number }>()).toMatchObject({ version: 1 });
    expect(got.json<{ votes: unknown[] }>().votes).toHaveLength(6);
  });

  it('merges the votes a push carries, once per user, model and task, however often they are pushed', async () => {
    const { tokens } = await team({ u1: 'write', u2: 'curate' });
    const lesson = makeLesson();
    const withVotes = (token: string, votes: unknown[]) =>
      app.request('/api/org/lessons', {
        method: 'POST',
        headers: bearer(token),
        body: { lessons: [{ lesson, votes }] },
      });
    const votes = [
      { model: 'opus', task: 't1' },
      { model: 'opus', task: 't2' },
    ];
    expect((await withVotes(tokens.u2!, votes)).json<PushBody>().results[0]?.outcome).toBe('created');
    expect((await withVotes(tokens.u2!, votes)).json<PushBody>().results[0]?.outcome).toBe('unchanged');
    await withVotes(tokens.u1!, [{ model: 'opus', task: 't1' }]);
    const got = await app.request(`/api/org/lessons/${lesson.id}`, { headers: bearer(tokens.u1!) });
    const keys = got
      .json<{ votes: Array<{ user: string; task: string }> }>()
      .votes.map((v) => `${v.user}:${v.task}`)
      .sort();
    expect(keys).toEqual(['u1:t1', 'u2:t1', 'u2:t2']);
    expect((await withVotes(tokens.u1!, [{ model: '' }])).status).toBe(400);
  });

  it('ranks a summary match above a body match, and searches only accepted lessons', async () => {
    const { tokens } = await team({ cora: 'curate', wes: 'write' });
    const inSummary = makeLesson({ summary: 'Pin the kubectl context before applying manifests' });
    const inBody = makeLesson({
      summary: 'Check the cluster first',
      body: 'Use kubectl config use-context.',
    });
    const proposed = makeLesson({ summary: 'kubectl proposal nobody accepted yet' });
    await push(tokens.cora!, [inBody, inSummary]);
    await push(tokens.wes!, [proposed]);
    const found = await app.request('/api/org/search?q=kubectl+context', { headers: bearer(tokens.wes!) });
    const ids = found.json<{ results: Array<{ lesson: { id: string } }> }>().results.map((r) => r.lesson.id);
    expect(ids).toEqual([inSummary.id, inBody.id]);
  });

  it('supersedes one lesson by another, both at their next version, and audits who did it', async () => {
    const { tokens } = await team({ ada: 'admin' });
    const old = makeLesson();
    const replacement = makeLesson();
    await push(tokens.ada!, [old, replacement]);
    const result = await app.request(`/api/org/lessons/${old.id}/supersede`, {
      method: 'POST',
      headers: bearer(tokens.ada!),
      body: { by: replacement.id },
    });
    expect(result.json()).toEqual({
      old: { id: old.id, version: 2 },
      by: { id: replacement.id, version: 2 },
    });
    const after = await app.request(`/api/org/lessons/${old.id}`, { headers: bearer(tokens.ada!) });
    expect(after.json<{ lesson: { status: string; supersededBy: string } }>().lesson).toMatchObject({
      status: 'superseded',
      supersededBy: replacement.id,
    });
    const audit = await app.request('/api/org/audit', { headers: bearer(tokens.ada!) });
    const actions = audit
      .json<{ entries: Array<{ actor: string; action: string }> }>()
      .entries.map((e) => `${e.actor} ${e.action}`);
    expect(actions.slice(0, 3)).toEqual(['ada lesson.supersede', 'ada lesson.create', 'ada lesson.create']);
  });

  it('supersedes only by an accepted, active lesson, and never into a cycle', async () => {
    const { tokens } = await team({ cora: 'curate', wendy: 'write' });
    const [a, b, c] = [makeLesson(), makeLesson(), makeLesson()];
    await push(tokens.cora!, [a, c]);
    await push(tokens.wendy!, [b]);
    const supersede = (old: string, by: string) =>
      app.request(`/api/org/lessons/${old}/supersede`, {
        method: 'POST',
        headers: bearer(tokens.cora!),
        body: { by },
      });
    const byProposal = await supersede(a.id, b.id);
    expect(byProposal.status).toBe(409);
    expect(byProposal.json<ErrorBody>().error.message).toMatch(/is proposed; only an accepted lesson/);
    expect(byProposal.json<ErrorBody>().error.hint).toContain(`/api/org/lessons/${b.id}/accept`);
    const untouched = await app.request(`/api/org/lessons/${a.id}`, { headers: bearer(tokens.cora!) });
    expect(untouched.json<{ version: number; lesson: { status: string } }>()).toMatchObject({
      version: 1,
      lesson: { status: 'active' },
    });

    await app.request(`/api/org/lessons/${b.id}/accept`, { method: 'POST', headers: bearer(tokens.cora!) });
    expect((await supersede(a.id, b.id)).status).toBe(200);
    const cycle = await supersede(b.id, a.id);
    expect(cycle.status).toBe(409);
    expect(cycle.json<ErrorBody>().error.message).toMatch(/is superseded by .*only an active lesson/);
    const third = await supersede(a.id, c.id);
    expect(third.status).toBe(409);
    expect(third.json<ErrorBody>().error.message).toContain(`already superseded by ${b.id}`);
  });

  it('makes and revokes tokens through the admin route; only hashes are stored, and no token reaches the audit', async () => {
    const { org, tokens } = await team({ ada: 'admin' });
    const made = await app.request('/api/org/tokens', {
      method: 'POST',
      headers: bearer(tokens.ada!),
      body: { user: 'newbie', role: 'read' },
    });
    expect(made.status).toBe(201);
    const token = made.json<{ token: string }>().token;
    expect(token).toMatch(/^lore_[A-Za-z0-9_-]{43}$/);
    expect((await app.request('/api/org/whoami', { headers: bearer(token) })).json()).toMatchObject({
      org,
      user: 'newbie',
      role: 'read',
    });
    const stored = await db().query<{ n: number }>(
      'SELECT count(*)::int AS n FROM tokens WHERE hash = $1 OR hash = $2',
      [token, tokens.ada!],
    );
    expect(stored[0]?.n).toBe(0);
    const dump = JSON.stringify(await db().query('SELECT * FROM audit'));
    expect(dump).not.toContain(token);
    expect(dump).not.toContain(tokens.ada!);
    const revoked = await app.request('/api/org/tokens/newbie', {
      method: 'DELETE',
      headers: bearer(tokens.ada!),
    });
    expect(revoked.json()).toEqual({ user: 'newbie', revoked: 1 });
    expect((await app.request('/api/org/whoami', { headers: bearer(token) })).status).toBe(401);
  });

  it('says what is wrong with an invalid lesson and still takes the valid ones of the batch', async () => {
    const { tokens } = await team({ cora: 'curate' });
    const good = makeLesson();
    const bad = { ...makeLesson(), summary: '', priority: 42 };
    const pushed = await push(tokens.cora!, [good, bad]);
    const [first, second] = pushed.json<PushBody>().results;
    expect(first).toMatchObject({ id: good.id, outcome: 'created' });
    expect(second).toMatchObject({ id: bad.id, outcome: 'invalid' });
    expect(second?.message).toMatch(/summary/);
    expect(second?.message).toMatch(/priority/);
    const malformed = await app.request('/api/org/lessons', {
      method: 'POST',
      headers: bearer(tokens.cora!),
      body: '{"lessons": ',
    });
    expect(malformed.status).toBe(400);
  });

  it('answers a malformed %-escape in a path parameter with a 400 that names it', async () => {
    const { tokens } = await team({ ada: 'admin' });
    for (const [method, url] of [
      ['GET', '/api/org/lessons/%E0%A4%A'],
      ['DELETE', '/api/org/tokens/%'],
    ] as const) {
      const refused = await app.request(url, { method, headers: bearer(tokens.ada!) });
      expect({ url, status: refused.status, code: refused.json<ErrorBody>().error.code }).toEqual({
        url,
        status: 400,
        code: 'bad-parameter',
      });
    }
  });

  it('refuses a query parameter a route does not take, naming the ones it does', async () => {
    const { tokens } = await team({ ada: 'admin' });
    const cases: Array<[string, string]> = [
      ['/api/org/lessons?stat=proposed', 'state, project, proposedBy, limit'],
      ['/api/org/search?q=hello&limt=1', 'q, limit, project'],
      ['/api/org/index?projet=billing', 'project'],
      ['/api/org/audit?lessons=x', 'limit, before, lesson'],
      ['/api/org/whoami?verbose=1', 'no query parameters'],
    ];
    for (const [url, takes] of cases) {
      const refused = await app.request(url, { headers: bearer(tokens.ada!) });
      expect({ url, status: refused.status, code: refused.json<ErrorBody>().error.code }).toEqual({
        url,
        status: 400,
        code: 'unknown-parameter',
      });
      expect(refused.json<ErrorBody>().error.hint).toContain(takes);
    }
    const fine = await app.request('/api/org/lessons?state=proposed&limit=5', {
      headers: bearer(tokens.ada!),
    });
    expect(fine.status).toBe(200);
  });

  it('refuses a NUL character in a lesson as that lesson invalid, the rest of the batch still taken, and elsewhere with a 4xx', async () => {
    const { tokens } = await team({ cora: 'curate' });
    const good = makeLesson();
    const inBody = { ...makeLesson(), body: 'The build printed:\nerror: bad byte \u0000 in stream' };
    const inTag = { ...makeLesson(), tags: ['ok', 'bad\u0000tag'] };
    const inVote = makeLesson();
    const pushed = await app.request('/api/org/lessons', {
      method: 'POST',
      headers: bearer(tokens.cora!),
      body: {
        lessons: [
          { lesson: good },
          { lesson: inBody },
          { lesson: inTag },
          { lesson: inVote, votes: [{ model: 'opus', task: 't\u0000' }] },
        ],
      },
    });
    expect(pushed.status).toBe(200);
    const results = pushed.json<PushBody>().results;
    expect(results.map((r) => [r.id, r.outcome])).toEqual([
      [good.id, 'created'],
      [inBody.id, 'invalid'],
      [inTag.id, 'invalid'],
      [inVote.id, 'invalid'],
    ]);
    expect(results.slice(1).map((r) => r.message)).toEqual([
      expect.stringMatching(/^body: holds a NUL character/),
      expect.stringMatching(/^tags\.1: holds a NUL character/),
      expect.stringMatching(/^votes\.0\.task: holds a NUL character/),
    ]);
    const put = await app.request(`/api/org/lessons/${good.id}`, {
      method: 'PUT',
      headers: bearer(tokens.cora!),
      body: { version: 1, lesson: { ...good, summary: 'a \u0000 summary' } },
    });
    expect(put.status).toBe(422);
    expect(put.json<ErrorBody>().error.message).toMatch(/summary: holds a NUL character/);
    const refusals = [
      await push(tokens.cora!, [makeLesson()], { project: 'bill\u0000ing' }),
      await app.request('/api/org/index?project=%00', { headers: bearer(tokens.cora!) }),
      await app.request(`/api/org/lessons/${good.id}/votes`, {
        method: 'POST',
        headers: bearer(tokens.cora!),
        body: { model: 'op\u0000us', task: 't' },
      }),
    ];
    expect(refusals.map((r) => r.status)).toEqual([400, 400, 400]);
  });

  it('refuses what PostgreSQL cannot store (a lone surrogate, a vote word past the local limit) as that lesson invalid, the rest of the batch still taken, and on the vote route with a 400', async () => {
    const { tokens } = await team({ cora: 'curate' });
    const good = makeLesson();
    const halfPair = { ...makeLesson(), summary: 'Quote the path \ud800 here' };
    const longModel = makeLesson();
    const halfTask = makeLesson();
    // random, so the database cannot compress it under its key size
    const long = randomBytes(1500).toString('hex');
    const pushed = await app.request('/api/org/lessons', {
      method: 'POST',
      headers: bearer(tokens.cora!),
      body: {
        lessons: [
          { lesson: good, votes: [{ model: 'opus', task: 'T-1' }] },
          { lesson: halfPair },
          { lesson: longModel, votes: [{ model: long, task: 'T-1' }] },
          {
            lesson: halfTask,
            votes: [
              { model: 'opus', task: 'T-1' },
              { model: 'opus', task: 'x\udc00' },
            ],
          },
        ],
      },
    });
    expect(pushed.status).toBe(200);
    const results = pushed.json<PushBody>().results;
    expect(results.map((r) => [r.id, r.outcome, r.message])).toEqual([
      [good.id, 'created', undefined],
      [halfPair.id, 'invalid', expect.stringMatching(/^summary: holds half of a UTF-16 surrogate pair/)],
      [longModel.id, 'invalid', 'votes.0.model is 3,000 characters; at most 128'],
      [
        halfTask.id,
        'invalid',
        expect.stringMatching(/^votes\.1\.task: holds half of a UTF-16 surrogate pair/),
      ],
    ]);
    const vote = (body: object) =>
      app.request(`/api/org/lessons/${good.id}/votes`, {
        method: 'POST',
        headers: bearer(tokens.cora!),
        body,
      });
    const refused = [await vote({ model: long, task: 't' }), await vote({ model: 'opus', task: '\ud800' })];
    expect(refused.map((r) => [r.status, r.json<ErrorBody>().error.message])).toEqual([
      [400, 'model is 3,000 characters; at most 128'],
      [400, expect.stringMatching(/^task: holds half of a UTF-16 surrogate pair/)],
    ]);
    expect((await vote({ model: 'opus', task: 'T-2' })).json()).toMatchObject({ added: true, votes: 2 });
  });

  it('keeps project lessons to their project', async () => {
    const { tokens } = await team({ cora: 'curate' });
    const orgWide = makeLesson();
    const scoped = makeLesson();
    await push(tokens.cora!, [orgWide]);
    await push(tokens.cora!, [scoped], { project: 'billing' });
    const index = (query: string) =>
      app
        .request(`/api/org/index${query}`, { headers: bearer(tokens.cora!) })
        .then((r) => r.json<IndexBody>().lessons.map((l) => l.id));
    expect(await index('')).toEqual([orgWide.id]);
    expect((await index('?project=billing')).sort()).toEqual([orgWide.id, scoped.id].sort());
  });
});
