/** The app behind node:http: reads the request (bodies up to 1 MB), writes the response. */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { App } from './create-app.js';
import { splitUrl } from './create-app.js';
import { errorBody, HttpError } from './http-error.js';
import { SECURITY_HEADERS } from './security.js';

const MAX_BODY = 1024 * 1024;

export function createHttpServer(app: App): Server {
  return createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY && !refused) {
        refused = true;
        res.writeHead(413, { ...SECURITY_HEADERS, 'content-type': 'application/json; charset=utf-8' });
        res.end(errorBody(new HttpError(413, 'too-large', 'request bodies are limited to 1 MB')));
        req.destroy();
      } else if (!refused) chunks.push(chunk);
    });
    req.on('end', () => {
      if (refused) return;
      const [path, query] = splitUrl(req.url ?? '/');
      const headers: Record<string, string | undefined> = {};
      for (const [key, value] of Object.entries(req.headers))
        headers[key] = Array.isArray(value) ? value.join(', ') : value;
      app
        .handle({
          method: req.method ?? 'GET',
          path,
          query: new URLSearchParams(query),
          headers,
          body: Buffer.concat(chunks).toString('utf8'),
        })
        .then(
          (response) => {
            res.writeHead(response.status, response.headers);
            res.end(response.body);
          },
          () => {
            res.writeHead(500, { ...SECURITY_HEADERS, 'content-type': 'application/json; charset=utf-8' });
            res.end(errorBody(new HttpError(500, 'internal', 'internal error')));
          },
        );
    });
  });
}

/** Listens and resolves with the port actually bound (port 0: any free one). */
export function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : port);
    });
  });
}
