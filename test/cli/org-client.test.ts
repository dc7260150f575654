/**
 * The client verbs of the organisation tier (login, pull, push, remote) against servers that
 * misbehave or race, with the built `lore`: a server that answers something other than lore's JSON
 * (a captive portal, a `{}`, a body that stalls), played by a small node:http server on loopback;
 * and the real org app (PGlite, in process, behind node:http), reached directly or through a proxy
 * that holds one route until the test lets it go.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createOrgClient } from '../../src/store/org-client/org-client.js';
import { createHttpServer, listen } from '../../src/adapters/http/serve-http.js';
import type { OrgDb } from '../../src/store/org/org-db.js';
import { createSandbox, waitForExit } from '../helpers/cli.js';
import type { Sandbox } from '../helpers/cli.js';
import { bearer, openPgliteBackend, orgApp, orgName, tokenFor } from '../helpers/org.js';

type Answer = (request: IncomingMessage, response: ServerResponse, body: Buffer) => void;

/** A server on loopback answering each path prefix as told (404 for the rest); closed after the test. */
async function startFake(answers: Record<string, Answer>): Promise<string> {
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const found = Object.entries(answers).find(([prefix]) => request.url?.startsWith(prefix));
      if (found) found[1](request, response, Buffer.concat(chunks));
      else response.writeHead(404).end();
    });
  });
  const port = await listen(server, 0, '127.0.0.1');
  onTestFinished(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return `http://127.0.0.1:${port}/`;
}

const json =
  (value: unknown): Answer =>
  (_request, response) =>
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value));
const html: Answer = (_request, response) =>
  response.writeHead(200, { 'content-type': 'text/html' }).end('<html>Sign in to Wi-Fi</html>');
const whoami = json({ org: 'acme', user: 'bob', role: 'read', server: 'pglite' });

const LESSON = {
  schemaVersion: 1,
  id: 'cccccccccc',
  slug: 'fake-lesson',
  summary: 'fake lesson',
  commands: ['^fake'],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

async function machineOn(url: string): Promise<Sandbox> {
  const machine = createSandbox({ loreHome: true });
  expect((await machine.runAsync(['remote', 'add', 'acme', url])).code).toBe(0);
  return machine;
}

const orgLessons = (machine: Sandbox): string[] => {
  const dir = join(machine.userTier, 'org', 'lessons');
  return existsSync(dir) ? readdirSync(dir) : [];
};

describe('a server that does not answer lore JSON', () => {
  it('fails login with an io error that says so, and saves no token', async () => {
    for (const answer of [html, json({}), json({ org: 'acme' })]) {
      const machine = await machineOn(await startFake({ '/api/org/whoami': answer }));
      const login = await machine.runAsync(['login', 'acme', '--token', 'lore_x']);
      expect({ code: login.code, stderr: login.stderr }).toMatchObject({
        code: 1,
        stderr: expect.stringMatching(/did not answer GET \/api\/org\/whoami with lore's JSON/),
      });
      expect(login.stderr).toContain('lore serve --org');
      expect(login.stderr).not.toContain('internal error');
      expect(existsSync(join(machine.userTier, 'credentials.json'))).toBe(false);
    }
  });

  it('takes a token pasted as a header, and refuses one with a second line or a space, saving nothing', async () => {
    const seen: Array<string | undefined> = [];
    const url = await startFake({
      '/api/org/whoami': (request, response, body) => {
        seen.push(request.headers.authorization);
        whoami(request, response, body);
      },
    });
    const machine = await machineOn(url);
    const refused = [
      await machine.runAsync(['login', 'acme'], { input: 'lore_x\n# the admin token of acme\n' }),
      await machine.runAsync(['login', 'acme', '--token', 'lore_x lore_y']),
    ];
    expect(refused.map((run) => run.code)).toEqual([2, 2]);
    for (const run of refused) expect(run.stderr).toContain('a token is one word');
    expect(existsSync(join(machine.userTier, 'credentials.json'))).toBe(false);
    const pasted = await machine.runAsync(['login', 'acme', '--token', 'Bearer lore_x']);
    expect(pasted.code).toBe(0);
    expect(seen).toEqual(['Bearer lore_x']);
  });

  it('fails pull with an io error and leaves the org tier as it was', async () => {
    const cases: Array<[string, Record<string, Answer>]> = [
      ['index is a page', { '/api/org/index': html }],
      ['index is {}', { '/api/org/index': json({}) }],
      [
        'a lesson with votes: null',
        {
          '/api/org/index': json({ lessons: [{ id: LESSON.id, version: 1, votes: 0 }] }),
          '/api/org/fetch': json({
            lessons: [
              {
                id: LESSON.id,
                version: 1,
                state: 'accepted',
                project: null,
                proposedBy: 'x',
                votes: null,
                lesson: LESSON,
              },
            ],
          }),
        },
      ],
    ];
    for (const [name, answers] of cases) {
      const machine = await machineOn(await startFake({ '/api/org/whoami': whoami, ...answers }));
      expect((await machine.runAsync(['login', 'acme', '--token', 'lore_x'])).code).toBe(0);
      const pull = await machine.runAsync(['pull']);
      expect({ name, code: pull.code }).toEqual({ name, code: 1 });
      expect(pull.stderr).toMatch(/did not answer .* with lore's JSON/);
      expect(pull.stderr).not.toContain('internal error');
      expect(orgLessons(machine)).toEqual([]);
      expect(existsSync(join(machine.userTier, 'org', 'state.json'))).toBe(false);
    }
  });

  it('gives up on an answer whose body stalls after the headers, as on a silent server', async () => {
    const url = await startFake({
      '/api/org/index': (_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write('{"lessons":[');
      },
    });
    // long enough for the headers to arrive on a loaded machine; the body never does
    const client = createOrgClient({ url, token: 'lore_x', timeoutMs: 2_000 });
    await expect(client.index()).rejects.toMatchObject({
      code: 'io',
      message: expect.stringMatching(/no complete answer from the organisation server/),
    });
  });
});

/** An org server offering the lessons `offered()` names (each at version 1, no votes); a page while `up()` is false. */
async function startOffering(offered: () => string[], up: () => boolean = () => true): Promise<string> {
  const record = (id: string) => ({
    id,
    version: 1,
    state: 'accepted',
    project: null,
    proposedBy: 'x',
    votes: [],
    lesson: { ...LESSON, id, slug: `lesson-${id}` },
  });
  const unlessDown =
    (answer: Answer): Answer =>
    (request, response, body) =>
      (up() ? answer : html)(request, response, body);
  return startFake({
    '/api/org/whoami': whoami,
    '/api/org/index': unlessDown((request, response, body) =>
      json({ lessons: offered().map((id) => ({ id, version: 1, votes: 0 })), proposals: [] })(
        request,
        response,
        body,
      ),
    ),
    '/api/org/fetch': unlessDown((request, response, body) => {
      const { ids } = JSON.parse(body.toString('utf8')) as { ids: string[] };
      json({ lessons: ids.filter((id) => offered().includes(id)).map(record) })(request, response, body);
    }),
  });
}

/** A machine following two remotes, acme and beta, logged in to both. */
async function twoRemotes(acme: string, beta: string): Promise<Sandbox> {
  const machine = await machineOn(acme);
  expect((await machine.runAsync(['remote', 'add', 'beta', beta])).code).toBe(0);
  for (const name of ['acme', 'beta'])
    expect((await machine.runAsync(['login', name, '--token', 'lore_x'])).code).toBe(0);
  return machine;
}

describe('two remotes', () => {
  it('lore pull asks which; --all pulls both, and one that fails leaves the other pulled (exit 1)', async () => {
    let acmeUp = true;
    const acme = await startOffering(
      () => ['aaaaaaaaaa'],
      () => acmeUp,
    );
    const machine = await twoRemotes(acme, await startOffering(() => ['bbbbbbbbbb']));
    const plain = await machine.runAsync(['pull']);
    expect(plain.code).toBe(2);
    expect(plain.stderr).toContain('there are 2 remotes; say which with --remote NAME');

    const both = await machine.runAsync(['pull', '--all', '--json']);
    expect(both.code).toBe(0);
    expect(both.json<{ remotes: Array<{ remote: string; added: string[] }> }>().remotes).toMatchObject([
      { remote: 'acme', added: ['aaaaaaaaaa'] },
      { remote: 'beta', added: ['bbbbbbbbbb'] },
    ]);
    expect(orgLessons(machine).sort()).toEqual(['aaaaaaaaaa', 'bbbbbbbbbb']);

    acmeUp = false;
    const partial = await machine.runAsync(['pull', '--all']);
    expect(partial.code).toBe(1);
    expect(partial.stdout).toMatch(/^acme: not pulled: .*did not answer/m);
    expect(partial.stdout).toMatch(/^pulled from beta: 1 organisation lesson\(s\)/m);
    expect(orgLessons(machine).sort()).toEqual(['aaaaaaaaaa', 'bbbbbbbbbb']);

    const mixed = await machine.runAsync(['pull', '--all', '--remote', 'beta']);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain('--all pulls every remote as it is');
    const project = await machine.runAsync(['pull', '--background', '--project', 'billing']);
    expect(project.code).toBe(2);
    expect(project.stderr).toContain('say which with --remote NAME');
  });

  it('the background pull of a session start pulls every remote', async () => {
    const machine = await twoRemotes(
      await startOffering(() => ['aaaaaaaaaa']),
      await startOffering(() => ['bbbbbbbbbb']),
    );
    const started = await machine.runAsync(['pull', '--background', '--json']);
    const { pid } = started.json<{ started: boolean; pid: number }>();
    expect(started.json()).toMatchObject({ started: true });
    // the detached pull ends before the sandbox goes (it writes the org tier's index last)
    expect(await waitForExit(pid)).toBe(true);
    expect(orgLessons(machine).sort()).toEqual(['aaaaaaaaaa', 'bbbbbbbbbb']);
  });

  it('a lesson both offer stays while either still does, and goes when neither does', async () => {
    let acmeOffers = ['aaaaaaaaaa', 'cccccccccc'];
    let betaOffers = ['cccccccccc'];
    const machine = await twoRemotes(
      await startOffering(() => acmeOffers),
      await startOffering(() => betaOffers),
    );
    expect((await machine.runAsync(['pull', '--all'])).code).toBe(0);
    expect(orgLessons(machine).sort()).toEqual(['aaaaaaaaaa', 'cccccccccc']);

    acmeOffers = ['aaaaaaaaaa'];
    const acme = await machine.runAsync(['pull', '--remote', 'acme', '--json']);
    expect(acme.json()).toMatchObject({ removed: [] });
    expect(orgLessons(machine).sort()).toEqual(['aaaaaaaaaa', 'cccccccccc']);
    const listed = await machine.runAsync(['list', '--tier', 'org', '--json']);
    expect(
      listed
        .json<{ lessons: Array<{ id: string }> }>()
        .lessons.map((l) => l.id)
        .sort(),
    ).toEqual(['aaaaaaaaaa', 'cccccccccc']);

    betaOffers = [];
    const beta = await machine.runAsync(['pull', '--remote', 'beta', '--json']);
    expect(beta.json()).toMatchObject({ removed: ['cccccccccc'] });
    expect(orgLessons(machine)).toEqual(['aaaaaaaaaa']);
  });
});

/** A proxy to `target` that holds every request to `held` until `release()`; `arrived` resolves on the first. */
async function startHoldingProxy(target: string, held: string) {
  let release!: () => void;
  let arrivedNow!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const arrived = new Promise<void>((resolve) => (arrivedNow = resolve));
  const url = await startFake({
    '/': (request, response, body) => {
      void (async () => {
        if (request.url?.startsWith(held)) {
          arrivedNow();
          await gate;
        }
        const upstream = await fetch(new URL(request.url ?? '/', target), {
          method: request.method ?? 'GET',
          headers: {
            authorization: request.headers.authorization ?? '',
            ...(request.headers['content-type'] ? { 'content-type': request.headers['content-type'] } : {}),
          },
          ...(body.length > 0 ? { body: body.toString('utf8') } : {}),
        });
        response
          .writeHead(upstream.status, { 'content-type': 'application/json' })
          .end(await upstream.text());
      })();
    },
  });
  return { url, arrived, release };
}

describe('against the real org server', () => {
  let db: OrgDb;
  let close: () => Promise<void>;
  let url: string;

  beforeAll(async () => {
    const backend = await openPgliteBackend();
    db = backend.db;
    const server = createHttpServer(orgApp(db));
    url = `http://127.0.0.1:${await listen(server, 0, '127.0.0.1')}/`;
    close = async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await backend.close();
    };
  }, 60_000);
  afterAll(async () => close?.());

  async function engineer(token: string, via = url): Promise<Sandbox> {
    const machine = await machineOn(via);
    expect((await machine.runAsync(['login', 'acme', '--token', token])).code).toBe(0);
    return machine;
  }
  const known = (machine: Sandbox): Record<string, number> =>
    (
      JSON.parse(readFileSync(join(machine.userTier, 'org', 'state.json'), 'utf8')) as {
        remotes: Record<string, { known: Record<string, number> }>;
      }
    ).remotes.acme?.known ?? {};

  it("lets a writer push again after a curator changed its proposal and it pulled, as the conflict's hint says; a rejected one says so", async () => {
    const org = orgName();
    const alice = await engineer(await tokenFor(db, org, 'alice', 'write'));
    const carol = bearer(await tokenFor(db, org, 'carol', 'curate'));
    const id = alice.add(['--tier', 'user', '--summary', 'Run migrations before tests']);
    expect((await alice.runAsync(['push', id])).code).toBe(0);
    const onServer = await (await fetch(`${url}api/org/lessons/${id}`, { headers: carol })).json();
    const edited = await fetch(`${url}api/org/lessons/${id}`, {
      method: 'PUT',
      headers: { ...carol, 'content-type': 'application/json' },
      body: JSON.stringify({
        version: 1,
        lesson: {
          ...(onServer as { lesson: object }).lesson,
          summary: 'Run the DB migrations before the tests',
        },
      }),
    });
    expect(edited.status).toBe(200);

    expect((await alice.runAsync(['update', id, '--priority', '8'])).code).toBe(0);
    const stale = await alice.runAsync(['push', id]);
    expect(stale.code).toBe(1);
    expect(stale.stdout).toMatch(/a curator changed your proposal .*now version 2.*run `lore pull`/);
    expect((await alice.runAsync(['pull'])).code).toBe(0);
    expect(orgLessons(alice)).toEqual([]);
    const retried = await alice.runAsync(['push', id, '--json']);
    expect(retried.json()).toMatchObject({
      results: [{ id, outcome: 'updated', version: 3, state: 'proposed' }],
    });

    await fetch(`${url}api/org/lessons/${id}/reject`, { method: 'POST', headers: carol });
    expect((await alice.runAsync(['update', id, '--priority', '9'])).code).toBe(0);
    const rejected = await alice.runAsync(['push', id]);
    expect(rejected.code).toBe(1);
    expect(rejected.stdout).toContain(`${id}: forbidden: a curator rejected ${id}`);
  }, 120_000);

  it('keeps the lessons of a project pulled once through later plain pulls, until the project is dropped', async () => {
    const org = orgName();
    const carol = await engineer(await tokenFor(db, org, 'carol', 'curate'));
    const orgWide = carol.add(['--tier', 'user', '--summary', 'Pin node 20 everywhere']);
    const billing = carol.add(['--summary', 'Billing: amounts are integer cents, never floats']);
    expect((await carol.runAsync(['push', orgWide])).code).toBe(0);
    expect((await carol.runAsync(['push', billing, '--from-project', '--project', 'billing'])).code).toBe(0);

    const bob = await engineer(await tokenFor(db, org, 'bob', 'read'));
    const first = await bob.runAsync(['pull', '--project', 'billing', '--json']);
    expect(first.json()).toMatchObject({ projects: ['billing'], total: 2 });
    const plain = await bob.runAsync(['pull']);
    expect(plain.stdout).toContain('pulled from acme (with project billing): 2 organisation lesson(s)');
    expect(plain.stdout).toContain('0 removed');
    expect(orgLessons(bob).sort()).toEqual([orgWide, billing].sort());

    const dropped = await bob.runAsync(['pull', '--drop-project', 'billing', '--json']);
    expect(dropped.json()).toMatchObject({ projects: [], removed: [billing], total: 1 });
    expect((await bob.runAsync(['pull', '--json'])).json()).toMatchObject({
      projects: [],
      removed: [],
      total: 1,
    });
    expect(orgLessons(bob)).toEqual([orgWide]);
  }, 120_000);

  it('pushes a few hundred lessons in batches under the server body limit; one lesson over it alone is refused by itself', async () => {
    const alice = await engineer(await tokenFor(db, orgName(), 'alice', 'curate'));
    alice.add(['--tier', 'user', '--summary', 'seed']);
    const lessonFile = (id: string, slug: string, body: string) =>
      [
        'schemaVersion: 1',
        `id: ${id}`,
        `slug: ${slug}`,
        `summary: ${slug}`,
        `body: ${JSON.stringify(body)}`,
        'createdAt: 2026-01-01T00:00:00.000Z',
        'updatedAt: 2026-01-01T00:00:00.000Z',
        '',
      ].join('\n');
    const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
    const idOf = (n: number) =>
      `zz${Array.from({ length: 8 }, (_, k) => ALPHABET[Math.floor(n / 32 ** k) % 32]).join('')}`;
    const write = (id: string, slug: string, body: string) => {
      mkdirSync(join(alice.userTier, 'lessons', id), { recursive: true });
      writeFileSync(join(alice.userTier, 'lessons', id, 'lesson.yaml'), lessonFile(id, slug, body));
    };
    for (let i = 0; i < 400; i++) write(idOf(i), `bulk-lesson-${i}`, 'Details. '.repeat(340));
    const huge = idOf(999);
    write(huge, 'huge-lesson', 'x'.repeat(1100 * 1024));
    expect((await alice.runAsync(['sync'])).code).toBe(0);

    const pushed = await alice.runAsync(['push', '--json']);
    expect(pushed.code).toBe(1);
    const results = pushed.json<{ results: Array<{ id: string; outcome: string; message?: string }> }>()
      .results;
    expect(results.filter((r) => r.outcome === 'created')).toHaveLength(401);
    expect(results.filter((r) => r.outcome !== 'created')).toEqual([
      {
        id: huge,
        outcome: 'invalid',
        version: null,
        state: null,
        message: expect.stringMatching(/more than the organisation server takes in one request \(1 MB\)/),
      },
    ]);
  }, 180_000);

  it('removes the lessons pulled from a remote with the remote, so they are no longer injected', async () => {
    const carol = await engineer(await tokenFor(db, orgName(), 'carol', 'curate'));
    const id = carol.add([
      '--tier',
      'user',
      '--summary',
      'Never run terraform apply without a plan file',
      '--command',
      '^terraform apply',
    ]);
    expect((await carol.runAsync(['push'])).code).toBe(0);
    rmSync(join(carol.userTier, 'lessons', id), { recursive: true });
    expect((await carol.runAsync(['pull'])).code).toBe(0);
    const explain = () =>
      carol.runAsync(['explain', '--tool', 'Bash', '--command', 'terraform apply -auto-approve']);
    expect((await explain()).stdout).toContain(id);

    const removed = await carol.runAsync(['remote', 'remove', 'acme']);
    expect(removed.stdout).toContain('removed remote acme, its token and the 1 lesson(s) pulled from it');
    expect(orgLessons(carol)).toEqual([]);
    const listed = await carol.runAsync(['list', '--tier', 'org', '--json']);
    expect(listed.json<{ lessons: unknown[] }>().lessons).toEqual([]);
    expect((await explain()).stdout).not.toContain(id);
    expect(readFileSync(join(carol.userTier, 'org', 'state.json'), 'utf8')).not.toContain('acme');
  }, 120_000);

  it('removes a lesson a killed pull wrote but never recorded once the organisation takes it back', async () => {
    const org = orgName();
    const carol = await engineer(await tokenFor(db, org, 'carol', 'curate'));
    const id = carol.add([
      '--tier',
      'user',
      '--summary',
      'Deploy with make ship',
      '--command',
      '^make deploy',
    ]);
    expect((await carol.runAsync(['push', id])).code).toBe(0);
    const bob = await engineer(await tokenFor(db, org, 'bob', 'read'));
    expect((await bob.runAsync(['pull'])).code).toBe(0);
    const explain = () => bob.runAsync(['explain', '--tool', 'Bash', '--command', 'make deploy']);
    expect((await explain()).stdout).toContain(id);
    // what a pull killed after writing the lesson and before recording it leaves behind
    const stateFile = join(bob.userTier, 'org', 'state.json');
    const state = JSON.parse(readFileSync(stateFile, 'utf8')) as {
      remotes: { acme: { pulled: Record<string, unknown> } };
    };
    delete state.remotes.acme.pulled[id];
    writeFileSync(stateFile, JSON.stringify(state));

    const taken = await fetch(`${url}api/org/lessons/${id}/reject`, {
      method: 'POST',
      headers: bearer(await tokenFor(db, org, 'cora', 'curate')),
    });
    expect(taken.status).toBe(200);
    const pulled = await bob.runAsync(['pull', '--json']);
    expect(pulled.json()).toMatchObject({ total: 0, removed: [id] });
    expect(orgLessons(bob)).toEqual([]);
    expect((await explain()).stdout).not.toContain(id);
  }, 120_000);

  it('keeps the version a push got acknowledged while a pull was running, so the next push of an edit goes', async () => {
    const proxy = await startHoldingProxy(url, '/api/org/index');
    const alice = await engineer(await tokenFor(db, orgName(), 'alice', 'write'), proxy.url);
    const id = alice.add(['--tier', 'user', '--summary', 'Use yarn add, not npm install, here']);
    const pulling = alice.runAsync(['pull']);
    await proxy.arrived;
    const pushed = await alice.runAsync(['push', id, '--json']);
    expect(pushed.json()).toMatchObject({ results: [{ id, outcome: 'created', version: 1 }] });
    proxy.release();
    expect((await pulling).code).toBe(0);
    expect(known(alice)[id]).toBe(1);

    expect((await alice.runAsync(['update', id, '--summary', 'Use yarn add, never npm install'])).code).toBe(
      0,
    );
    const edited = await alice.runAsync(['push', id, '--json']);
    expect(edited.json()).toMatchObject({ results: [{ id, outcome: 'updated', version: 2 }] });
  }, 120_000);
});
