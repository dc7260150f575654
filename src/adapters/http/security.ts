/**
 * Who may talk to the API. On loopback no token is needed, but the Host header must name a
 * loopback host (a page on another site cannot reach us through DNS rebinding). Off loopback every
 * API request carries `Authorization: Bearer <token>`. Mutating requests from a browser must come
 * from our own origin and send JSON (a cross-site form cannot). Every response carries a strict
 * Content-Security-Policy.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { HttpError } from './http-error.js';
import type { AppRequest } from './app-types.js';

export type AccessPolicy = {
  /** When set, every /api request needs it as a bearer token. */
  token: string | undefined;
};

export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

export function isLoopbackAddress(host: string): boolean {
  return LOOPBACK_HOSTS.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export function generateToken(): string {
  return randomBytes(24).toString('base64url');
}

/** The host name of a Host header (`[::1]:4777` -> `[::1]`, `localhost:80` -> `localhost`). */
function hostName(header: string): string {
  if (header.startsWith('[')) return header.slice(0, header.indexOf(']') + 1);
  const colon = header.lastIndexOf(':');
  return colon < 0 ? header : header.slice(0, colon);
}

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function checkAccess(request: AppRequest, policy: AccessPolicy): void {
  const host = request.headers.host ?? '';
  const isApi = request.path.startsWith('/api/');
  if (policy.token === undefined) {
    if (!isLoopbackAddress(hostName(host).toLowerCase())) {
      throw new HttpError(403, 'bad-host', `refused: Host "${host}" is not a loopback address`, {
        hint: 'open the dashboard at http://127.0.0.1:<port>/, or serve with --host and a token',
      });
    }
  } else if (isApi && !tokenMatches(request.headers.authorization, policy.token)) {
    throw new HttpError(
      401,
      'unauthorized',
      'this server needs a token: send Authorization: Bearer <token>',
      {
        hint: 'the token is LORE_TOKEN, or the one `lore serve` printed; the dashboard takes it from the #token= part of its URL',
      },
    );
  }
  if (MUTATING.has(request.method)) {
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== `http://${host}` && origin !== `https://${host}`) {
      throw new HttpError(403, 'bad-origin', `refused: a ${request.method} from origin ${origin}`, {
        hint: 'changes are accepted only from the dashboard itself (or a client that sends no Origin)',
      });
    }
    if (request.headers['sec-fetch-site'] === 'cross-site') {
      throw new HttpError(403, 'bad-origin', `refused: a cross-site ${request.method}`);
    }
    const type = request.headers['content-type'] ?? '';
    if (request.body !== '' && !type.toLowerCase().startsWith('application/json')) {
      throw new HttpError(415, 'unsupported-media-type', 'request bodies must be application/json');
    }
  }
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  if (!match?.[1]) return false;
  const given = Buffer.from(match[1]);
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}
