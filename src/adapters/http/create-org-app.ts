/**
 * `lore serve --org`: the organisation routes in front of the existing app. `/api/org/...` needs
 * an organisation token (`Authorization: Bearer lore_...`), checked against the database on every
 * request (a revoked token is refused at once); everything else goes to the local app unchanged.
 * Requests run concurrently: PostgreSQL (or PGlite's own queue) orders them. The access log names
 * the user, never a token.
 */
import { isLoreError } from '../../core/errors.js';
import { authenticate } from '../../store/org/org-tokens.js';
import type { Principal } from '../../store/org/org-tokens.js';
import type { OrgDb } from '../../store/org/org-db.js';
import type { AppRequest, AppResponse } from './app-types.js';
import type { App } from './create-app.js';
import { requestInProcess } from './create-app.js';
import { errorBody, HttpError, toHttpError } from './http-error.js';
import { ORG_ROUTES, requireRole } from './org-routes.js';
import type { OrgRoute } from './org-routes.js';
import { checkQueryNames, pathParams } from './request-body.js';
import { SECURITY_HEADERS } from './security.js';

export type OrgAppOptions = {
  db: OrgDb;
  /** The local app (`/api/...` and the dashboard) for every path outside `/api/org/`. */
  base: App;
  now?: () => number;
  /** One line per org request (method, path, status, user, ms) and internal errors. */
  log?: (line: string) => void;
};

type Compiled = OrgRoute & { pattern: RegExp; names: string[] };

const COMPILED: Compiled[] = ORG_ROUTES.map((route) => {
  const names: string[] = [];
  const source = route.path
    .split('/')
    .map((part) => {
      if (!part.startsWith(':')) return part;
      names.push(part.slice(1));
      return '([^/]+)';
    })
    .join('/');
  return { ...route, pattern: new RegExp(`^${source}$`), names };
});

function bearer(request: AppRequest): string | undefined {
  return /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
}

function json(status: number, body: string): AppResponse {
  return {
    status,
    headers: {
      ...SECURITY_HEADERS,
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
    },
    body,
  };
}

/** Store errors to HTTP: a role refusal is 403, a stale version 409; the rest as the local app maps them. */
function orgHttpError(error: unknown): HttpError {
  if (isLoreError(error) && (error.details as { code?: string } | undefined)?.code === 'forbidden')
    return new HttpError(403, 'forbidden', error.message, error.hint ? { hint: error.hint } : {});
  if (isLoreError(error) && (error.details as { code?: string } | undefined)?.code === 'stale-version')
    return new HttpError(409, 'stale-version', error.message, {
      ...(error.hint ? { hint: error.hint } : {}),
      details: error.details,
    });
  return toHttpError(error);
}

/** PostgreSQL stores no NUL in text: a query value or path part holding one is a 400 at the door. */
function refuseNul(values: readonly string[]): void {
  if (values.some((value) => value.includes('\u0000')))
    throw new HttpError(400, 'bad-parameter', 'a query parameter or path part holds a NUL character (%00)');
}

export function createOrgApp(options: OrgAppOptions): App {
  const now = options.now ?? (() => Date.now());

  const route = async (request: AppRequest): Promise<{ response: AppResponse; who?: Principal }> => {
    const candidates = COMPILED.filter((r) => r.pattern.test(request.path));
    if (candidates.length === 0)
      throw new HttpError(404, 'not-found', `no organisation route ${request.path}`);
    const found = candidates.find((r) => r.method === request.method);
    if (!found)
      throw new HttpError(405, 'method-not-allowed', `${request.method} ${request.path} is not allowed`, {
        hint: `allowed: ${candidates.map((r) => r.method).join(', ')}`,
      });
    const token = bearer(request);
    const who = token === undefined ? undefined : await authenticate(options.db, token);
    if (!who)
      throw new HttpError(
        401,
        'unauthorized',
        token === undefined ? 'organisation routes need a token' : 'this token is unknown or revoked',
        {
          hint: 'send Authorization: Bearer <token>; an admin makes tokens with `lore org token create USER --role ROLE`',
        },
      );
    requireRole(who, found);
    checkQueryNames(request.query, found.query ?? [], `${found.method} ${found.path}`);
    if (
      request.method !== 'GET' &&
      request.body !== '' &&
      !(request.headers['content-type'] ?? '').toLowerCase().startsWith('application/json')
    )
      throw new HttpError(415, 'unsupported-media-type', 'request bodies must be application/json');
    const params = pathParams(found.names, found.pattern.exec(request.path));
    refuseNul([...request.query.values(), ...Object.values(params)]);
    const result = await found.handler({ request, params, who, db: options.db, nowMs: now() });
    return { response: json(result.status ?? 200, JSON.stringify(result.body)), who };
  };

  const handle = async (request: AppRequest): Promise<AppResponse> => {
    if (!request.path.startsWith('/api/org/')) return options.base.handle(request);
    const started = now();
    let response: AppResponse;
    let user = '-';
    try {
      const routed = await route(request);
      response = routed.response;
      user = routed.who?.user ?? '-';
    } catch (error) {
      const httpError = orgHttpError(error);
      if (httpError.status >= 500 && httpError.code === 'internal')
        options.log?.(
          `lore serve --org: ${request.method} ${request.path}: ${(error as Error)?.stack ?? String(error)}`,
        );
      response = json(httpError.status, errorBody(httpError));
    }
    options.log?.(`${request.method} ${request.path} ${response.status} ${user} ${now() - started}ms`);
    return response;
  };

  return {
    handle,
    request: (url, init = {}) => requestInProcess(handle, url, init),
  };
}
