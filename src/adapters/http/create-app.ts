/**
 * The dashboard server as one in-process function: a request in, a response out, no socket.
 * `app.request('/api/lessons')` is how tests call it (the way hono apps are tested);
 * serve-http.ts puts it behind node:http. Errors become JSON with a code and a message in one
 * place (`onError` below); every response carries the security headers.
 */
import { createSerialQueue } from '../../core/create-serial-queue.js';
import { openWorkspace } from '../../store/workspace/workspace.js';
import type { Workspace } from '../../store/workspace/workspace.js';
import { ROUTES } from './api-routes.js';
import type { Route, RouteContext } from './api-routes.js';
import type { AppRequest, AppResponse } from './app-types.js';
import { errorBody, HttpError, toHttpError } from './http-error.js';
import { checkQueryNames, pathParams } from './request-body.js';
import { checkAccess, SECURITY_HEADERS } from './security.js';
import type { AccessPolicy } from './security.js';
import { findAsset, loadAssets } from './static-assets.js';
import type { Assets } from './static-assets.js';

export type AppOptions = {
  cwd: string;
  root?: string;
  env: NodeJS.ProcessEnv;
  policy: AccessPolicy;
  /** The built dashboard (dist/web/); omitted: API only. */
  assetsDir?: string;
  now?: () => number;
  notice?: string;
  /** Where internal errors are reported (the server's stderr). */
  log?: (line: string) => void;
};

export type RequestInit = { method?: string; headers?: Record<string, string>; body?: string | object };
export type TestResponse = AppResponse & { text(): string; json<T = unknown>(): T };

export type App = {
  handle(request: AppRequest): Promise<AppResponse>;
  /** Like fetch, in-process: a path with its query, and loopback defaults for the Host header. */
  request(url: string, init?: RequestInit): Promise<TestResponse>;
};

type CompiledRoute = Route & { pattern: RegExp; names: string[] };

function compile(route: Route): CompiledRoute {
  const names: string[] = [];
  const source = route.path
    .split('/')
    .map((part) => {
      if (!part.startsWith(':')) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(part.slice(1));
      return '([^/]+)';
    })
    .join('/');
  return { ...route, pattern: new RegExp(`^${source}$`), names };
}

const COMPILED = ROUTES.map(compile);

function json(status: number, value: unknown): AppResponse {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
    body: JSON.stringify(value),
  };
}

export function createApp(options: AppOptions): App {
  const now = options.now ?? (() => Date.now());
  const assets: Assets | undefined = options.assetsDir ? loadAssets(options.assetsDir) : undefined;
  // One request at a time touches the store: the dashboard is one person's.
  const serialized = createSerialQueue();

  const route = async (request: AppRequest): Promise<AppResponse> => {
    checkAccess(request, options.policy);
    if (!request.path.startsWith('/api/')) {
      if (request.method !== 'GET' && request.method !== 'HEAD')
        throw new HttpError(405, 'method-not-allowed', `${request.method} ${request.path} is not allowed`);
      if (!assets) throw new HttpError(404, 'not-found', `no such file: ${request.path}`);
      const asset = findAsset(assets, request.path);
      return {
        status: 200,
        headers: { 'content-type': asset.type, 'cache-control': 'no-cache' },
        body: asset.body,
      };
    }
    const candidates = COMPILED.filter((r) => r.pattern.test(request.path));
    if (candidates.length === 0)
      throw new HttpError(404, 'not-found', `no API route ${request.path}`, {
        hint: 'see /api/openapi.json',
      });
    const found = candidates.find((r) => r.method === request.method);
    if (!found) {
      throw new HttpError(405, 'method-not-allowed', `${request.method} ${request.path} is not allowed`, {
        hint: `allowed: ${candidates.map((r) => r.method).join(', ')}`,
      });
    }
    checkQueryNames(request.query, found.query, `${found.method} ${found.path}`);
    const params = pathParams(found.names, found.pattern.exec(request.path));
    return serialized(async () => {
      let ws: Workspace | undefined;
      const ctx: RouteContext = {
        request,
        params,
        nowMs: now(),
        env: options.env,
        notice: options.notice,
        async workspace() {
          if (!ws) {
            ws = await openWorkspace({
              cwd: options.cwd,
              ...(options.root !== undefined ? { root: options.root } : {}),
              env: options.env,
            });
            await ws.ready();
          }
          return ws;
        },
      };
      try {
        const result = await found.handler(ctx);
        return json(result.status ?? 200, result.body);
      } finally {
        ws?.close();
      }
    });
  };

  const handle = async (request: AppRequest): Promise<AppResponse> => {
    let response: AppResponse;
    try {
      response = await route(request);
    } catch (error) {
      const httpError = toHttpError(error);
      if (httpError.status >= 500 && httpError.code === 'internal')
        options.log?.(
          `lore serve: ${request.method} ${request.path}: ${(error as Error)?.stack ?? String(error)}`,
        );
      response = {
        status: httpError.status,
        headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
        body: errorBody(httpError),
      };
    }
    response.headers = { ...SECURITY_HEADERS, ...response.headers };
    if (request.method === 'HEAD') response.body = '';
    return response;
  };

  return {
    handle,
    request: (url, init = {}) => requestInProcess(handle, url, init),
  };
}

/** `/a/b?x=1` -> ['/a/b', 'x=1'], keeping the path exactly as sent (no dot-segment folding). */
export function splitUrl(url: string): [string, string] {
  const at = url.indexOf('?');
  return at < 0 ? [url, ''] : [url.slice(0, at), url.slice(at + 1)];
}

/** A request made in-process (tests, `lore explain` over the API): no socket, the same handler. */
export async function requestInProcess(
  handle: (request: AppRequest) => Promise<AppResponse>,
  url: string,
  init: RequestInit,
): Promise<TestResponse> {
  const [path = '/', query = ''] = splitUrl(url);
  const headers: Record<string, string> = { host: '127.0.0.1:4777' };
  for (const [key, value] of Object.entries(init.headers ?? {})) headers[key.toLowerCase()] = value;
  let body = '';
  if (init.body !== undefined) {
    body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await handle({
    method: (init.method ?? 'GET').toUpperCase(),
    path,
    query: new URLSearchParams(query),
    headers,
    body,
  });
  const text = () =>
    typeof response.body === 'string' ? response.body : Buffer.from(response.body).toString('utf8');
  return { ...response, text, json: <T>() => JSON.parse(text()) as T };
}
