/**
 * The client of an organisation server's `/api/org/...` routes (fetch, one timeout per request).
 * The server's errors come back as LoreErrors with its message and hint; an unreachable server is
 * an `io` error that says the org tier keeps working from its last pull. The token travels only in
 * the Authorization header and never appears in a message.
 */
import { LoreError } from '../../core/errors.js';
import type { ErrorCode } from '../../core/errors.js';
import type { Lesson } from '../../core/lesson/schema.js';
import { z } from 'zod';

export type OrgIndexEntry = { id: string; version: number; votes: number };
/** One of the caller's own lessons the organisation has not accepted: its version, never its text. */
export type OwnProposal = { id: string; version: number; state: string };
export type OrgIndex = { lessons: OrgIndexEntry[]; proposals: OwnProposal[] };

export type OrgVote = { user: string; model: string; task: string; at: string };
export type PulledLesson = {
  id: string;
  version: number;
  state: string;
  project: string | null;
  proposedBy: string;
  votes: OrgVote[];
  lesson: Lesson;
};
export type PushItem = {
  lesson: Lesson;
  baseVersion?: number;
  votes?: Array<{ model: string; task: string }>;
};
export type PushResult = {
  id: string | null;
  outcome: string;
  version: number | null;
  state: string | null;
  message?: string;
};
export type Whoami = { org: string; user: string; role: string; server: string };

export type OrgClient = {
  url: string;
  whoami(): Promise<Whoami>;
  index(project?: string): Promise<OrgIndex>;
  fetch(ids: readonly string[]): Promise<PulledLesson[]>;
  push(items: readonly PushItem[], project?: string): Promise<PushResult[]>;
  vote(
    id: string,
    vote: { model: string; task: string },
  ): Promise<{ id: string; added: boolean; votes: number }>;
  createToken(
    user: string,
    role: string,
  ): Promise<{ token: string; org: string; user: string; role: string }>;
  revokeToken(user: string): Promise<{ user: string; revoked: number }>;
};

const CODE_OF_STATUS: Record<number, ErrorCode> = {
  400: 'usage',
  401: 'usage',
  403: 'usage',
  404: 'not-found',
  409: 'conflict',
  422: 'invalid',
};

const vote = z.object({ user: z.string(), model: z.string(), task: z.string(), at: z.string() });
const entry = z.object({ id: z.string(), version: z.number().int(), votes: z.number().int() });

/**
 * What each route answers, checked before anything is written or saved: a captive portal's page,
 * a `{}` from another service or a lesson with `votes: null` is a clear error, never a crash
 * further down (or a token saved for "undefined of undefined").
 */
const ANSWERS = {
  whoami: z.object({
    org: z.string().min(1),
    user: z.string().min(1),
    role: z.string().min(1),
    server: z.string().default(''),
  }),
  index: z.object({
    lessons: z.array(entry),
    // the caller's own proposals (a server older than this client leaves them out)
    proposals: z
      .array(z.object({ id: z.string(), version: z.number().int(), state: z.string() }))
      .default([]),
  }),
  fetch: z.object({
    lessons: z.array(
      z.object({
        id: z.string(),
        version: z.number().int(),
        state: z.string(),
        project: z.string().nullable(),
        proposedBy: z.string(),
        votes: z.array(vote),
        lesson: z.record(z.string(), z.unknown()),
      }),
    ),
  }),
  push: z.object({
    results: z.array(
      z.object({
        id: z.string().nullable(),
        outcome: z.string(),
        version: z.number().int().nullable(),
        state: z.string().nullable(),
        message: z.string().optional(),
      }),
    ),
  }),
  vote: z.object({ id: z.string(), added: z.boolean(), votes: z.number().int() }),
  createToken: z.object({ token: z.string(), org: z.string(), user: z.string(), role: z.string() }),
  revokeToken: z.object({ user: z.string(), revoked: z.number().int() }),
};

const NOT_LORE_HINT =
  'is the remote the address of `lore serve --org`? a proxy, a captive portal or another service may be answering: check `lore remote list`';

/** A 2xx body as the route's answer, or an `io` error saying the server did not answer lore's JSON. */
export function parseAnswer<T>(base: string, route: string, text: string, shape: z.ZodType<T>): T {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const start = text.trim().slice(0, 40).replace(/\s+/g, ' ');
    throw new LoreError('io', `${base} did not answer ${route} with lore's JSON (it sent "${start}")`, {
      hint: NOT_LORE_HINT,
    });
  }
  const parsed = shape.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue ? `${issue.path.join('.') || 'the answer'}: ${issue.message}` : 'unexpected shape';
  throw new LoreError('io', `${base} did not answer ${route} with lore's JSON (${where})`, {
    hint: NOT_LORE_HINT,
  });
}

export function createOrgClient(options: { url: string; token: string; timeoutMs?: number }): OrgClient {
  const base = options.url.replace(/\/+$/, '');
  const send = (method: string, path: string, body?: unknown): Promise<Response> =>
    fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${options.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    });
  const unreachable = (error: unknown, what: string): LoreError => {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    return new LoreError('io', `${what} the organisation server at ${base} (${cause})`, {
      hint: 'offline or down? every read and the hooks keep working from the last `lore pull`; try again later',
    });
  };
  const call = async <T>(method: string, path: string, shape: z.ZodType<T>, body?: unknown): Promise<T> => {
    let response: Response;
    let text: string;
    try {
      // A kept-alive connection the server closed while idle fails the next request at once: sent
      // again on a fresh one. Safe for every route: reads, and pushes (the same content twice is
      // `unchanged`) and votes (idempotent); never a token call (a second token would be made).
      response = await send(method, path, body).catch((error: unknown) => {
        if ((error as Error).name === 'TimeoutError' || path.startsWith('/api/org/tokens')) throw error;
        return send(method, path, body);
      });
    } catch (error) {
      throw unreachable(error, 'cannot reach');
    }
    try {
      // the timeout covers the body too: headers then silence is a timeout, not a hang
      text = await response.text();
    } catch (error) {
      throw unreachable(error, 'no complete answer from');
    }
    const route = `${method} ${path.split('?')[0]}`;
    if (response.ok) return parseAnswer(base, route, text, shape);
    let error: { code?: string; message?: string; hint?: string | null } = {};
    try {
      error = (JSON.parse(text) as { error?: typeof error }).error ?? {};
    } catch {
      // not lore's JSON: a proxy's page; the status says enough
    }
    const hint =
      response.status === 401
        ? 'the token is unknown or revoked: ask an admin for a new one, then `lore login NAME --token T`'
        : (error.hint ?? (error.message === undefined ? NOT_LORE_HINT : undefined));
    throw new LoreError(
      CODE_OF_STATUS[response.status] ?? 'io',
      `${base}: ${error.message ?? `HTTP ${response.status}`}`,
      { ...(hint ? { hint } : {}), details: { status: response.status, code: error.code ?? null } },
    );
  };
  return {
    url: base,
    whoami: () => call('GET', '/api/org/whoami', ANSWERS.whoami),
    async index(project) {
      const query = project ? `?project=${encodeURIComponent(project)}` : '';
      return call('GET', `/api/org/index${query}`, ANSWERS.index);
    },
    async fetch(ids) {
      const answer = await call('POST', '/api/org/fetch', ANSWERS.fetch, { ids });
      return answer.lessons as PulledLesson[];
    },
    async push(items, project) {
      const body = { lessons: items, ...(project ? { project } : {}) };
      return (await call('POST', '/api/org/lessons', ANSWERS.push, body)).results;
    },
    vote: (id, v) => call('POST', `/api/org/lessons/${encodeURIComponent(id)}/votes`, ANSWERS.vote, v),
    createToken: (user, role) => call('POST', '/api/org/tokens', ANSWERS.createToken, { user, role }),
    revokeToken: (user) => call('DELETE', `/api/org/tokens/${encodeURIComponent(user)}`, ANSWERS.revokeToken),
  };
}
