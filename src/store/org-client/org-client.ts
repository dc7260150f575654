/**
 * The client of an organisation server's `/api/org/...` routes (fetch, one timeout per request).
 * The server's errors come back as LoreErrors with its message and hint; an unreachable server is
 * an `io` error that says the org tier keeps working from its last pull. The token travels only in
 * the Authorization header and never appears in a message.
 */
import { LoreError } from '../../core/errors.js';
import type { ErrorCode } from '../../core/errors.js';
import type { Lesson } from '../../core/lesson/schema.js';

export type OrgIndexEntry = { id: string; version: number; votes: number };
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
  index(project?: string): Promise<OrgIndexEntry[]>;
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
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    let response: Response;
    try {
      // A kept-alive connection the server closed while idle fails the next request at once: sent
      // again on a fresh one. Safe for every route: reads, and pushes (the same content twice is
      // `unchanged`) and votes (idempotent); never a token call (a second token would be made).
      response = await send(method, path, body).catch((error: unknown) => {
        if ((error as Error).name === 'TimeoutError' || path.startsWith('/api/org/tokens')) throw error;
        return send(method, path, body);
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
      throw new LoreError('io', `cannot reach the organisation server at ${base} (${cause})`, {
        hint: 'offline or down? every read and the hooks keep working from the last `lore pull`; try again later',
      });
    }
    const text = await response.text();
    if (response.ok) return JSON.parse(text) as T;
    let error: { code?: string; message?: string; hint?: string | null } = {};
    try {
      error = (JSON.parse(text) as { error?: typeof error }).error ?? {};
    } catch {
      // not lore's JSON: a proxy's page; the status says enough
    }
    const hint =
      response.status === 401
        ? 'the token is unknown or revoked: ask an admin for a new one, then `lore login NAME --token T`'
        : (error.hint ?? undefined);
    throw new LoreError(
      CODE_OF_STATUS[response.status] ?? 'io',
      `${base}: ${error.message ?? `HTTP ${response.status}`}`,
      { ...(hint ? { hint } : {}), details: { status: response.status, code: error.code ?? null } },
    );
  };
  return {
    url: base,
    whoami: () => call<Whoami>('GET', '/api/org/whoami'),
    async index(project) {
      const query = project ? `?project=${encodeURIComponent(project)}` : '';
      return (await call<{ lessons: OrgIndexEntry[] }>('GET', `/api/org/index${query}`)).lessons;
    },
    async fetch(ids) {
      return (await call<{ lessons: PulledLesson[] }>('POST', '/api/org/fetch', { ids })).lessons;
    },
    async push(items, project) {
      const body = { lessons: items, ...(project ? { project } : {}) };
      return (await call<{ results: PushResult[] }>('POST', '/api/org/lessons', body)).results;
    },
    vote: (id, vote) => call('POST', `/api/org/lessons/${encodeURIComponent(id)}/votes`, vote),
    createToken: (user, role) => call('POST', '/api/org/tokens', { user, role }),
    revokeToken: (user) => call('DELETE', `/api/org/tokens/${encodeURIComponent(user)}`),
  };
}
