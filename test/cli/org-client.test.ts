/**
 * The client verbs of the organisation tier (login, pull, push, remote) against servers that
 * misbehave or race: a server that answers something other than lore's JSON (a captive portal, a
 * `{}`, a body that stalls), with the built `lore` and a small node:http server the test runs on
 * loopback to play that server.
 */
import { existsSync, readdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createOrgClient } from '../../src/store/org-client/org-client.js';
import { listen } from '../../src/adapters/http/serve-http.js';
import { createSandbox } from '../helpers/cli.js';
import type { Sandbox } from '../helpers/cli.js';

type Answer = (request: IncomingMessage, response: ServerResponse) => void;

/** A server on loopback answering each path prefix as told (404 for the rest); closed after the test. */
async function startFake(answers: Record<string, Answer>): Promise<string> {
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const found = Object.entries(answers).find(([prefix]) => request.url?.startsWith(prefix));
      if (found) found[1](request, response);
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
