/**
 * The dashboard's files, built by `npm run build` into `dist/web/`. Only files found in that
 * folder at start-up are ever served, by exact name: a request path is looked up in that table and
 * never joined onto the file system, so `..`, encoded slashes and the like cannot reach anything
 * else. Paths that try are refused outright.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HttpError } from './http-error.js';

export type Asset = { type: string; body: Uint8Array };
export type Assets = { dir: string; files: Map<string, Asset> };

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/** `dist/web/` beside the built adapter (dist/adapters/http/ -> dist/web/). */
export function defaultAssetsDir(): string {
  return fileURLToPath(new URL('../../web/', import.meta.url));
}

export function loadAssets(dir: string): Assets {
  const files = new Map<string, Asset>();
  const walk = (current: string) => {
    let entries;
    try {
      entries = readdirSync(current, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && statSync(path).size < 8 * 1024 * 1024) {
        const name = `/${relative(dir, path).split(sep).join('/')}`;
        files.set(name, {
          type: TYPES[extname(name)] ?? 'application/octet-stream',
          body: readFileSync(path),
        });
      }
    }
  };
  walk(dir);
  return { dir, files };
}

/** The asset for a request path; `/` is the dashboard. Refuses traversal, 404s the rest. */
export function findAsset(assets: Assets, rawPath: string): Asset {
  let path: string;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    throw new HttpError(400, 'bad-path', 'the path is not valid percent-encoding');
  }
  if (
    path.includes('\0') ||
    path.includes('\\') ||
    path.split('/').some((segment) => segment === '..' || segment === '.') ||
    /%2e|%2f|%5c/i.test(rawPath)
  ) {
    throw new HttpError(400, 'bad-path', 'refused: the path leaves the dashboard folder');
  }
  const asset = assets.files.get(path === '/' ? '/index.html' : path);
  if (asset) return asset;
  if (path === '/' || path === '/index.html') {
    throw new HttpError(503, 'no-dashboard', `the dashboard is not built (no index.html in ${assets.dir})`, {
      hint: 'run `npm run build`',
    });
  }
  throw new HttpError(404, 'not-found', `no such file: ${path}`);
}
