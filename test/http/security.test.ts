import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../src/adapters/http/security.js';
import { createAppSandbox } from '../helpers/http.js';

type ErrorBody = { error: { code: string; message: string } };

function assetsDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lore-assets-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>lore</title>');
  writeFileSync(join(dir, 'assets', 'app.js'), 'console.log(1)');
  // a secret next to the dashboard folder: nothing may ever serve it
  writeFileSync(join(dir, '..', `lore-secret-${process.pid}.txt`), 'secret');
  onTestFinished(() => rmSync(join(dir, '..', `lore-secret-${process.pid}.txt`), { force: true }));
  return dir;
}

describe('HTTP security', () => {
  it('requires the bearer token on every API request when one is set (off loopback)', async () => {
    const { app } = createAppSandbox({ token: 'tok-123', assetsDir: assetsDir() });
    const remote = { host: '192.168.1.20:4777' };
    const none = await app.request('/api/lessons', { headers: remote });
    expect(none.status).toBe(401);
    expect(none.json<ErrorBody>().error.code).toBe('unauthorized');
    const wrong = await app.request('/api/lessons', {
      headers: { ...remote, authorization: 'Bearer tok-124' },
    });
    expect(wrong.status).toBe(401);
    const post = await app.request('/api/lessons', {
      method: 'POST',
      headers: remote,
      body: { summary: 'x' },
    });
    expect(post.status).toBe(401);
    const right = await app.request('/api/lessons', {
      headers: { ...remote, authorization: 'Bearer tok-123' },
    });
    expect(right.status).toBe(200);
    // the page itself holds no data: it loads, then asks for the token
    expect((await app.request('/', { headers: remote })).status).toBe(200);
  });

  it('on loopback without a token, refuses a Host that is not loopback (DNS rebinding)', async () => {
    const { app } = createAppSandbox();
    const rebound = await app.request('/api/lessons', { headers: { host: 'evil.example:4777' } });
    expect(rebound.status).toBe(403);
    expect(rebound.json<ErrorBody>().error.code).toBe('bad-host');
    for (const host of ['127.0.0.1:4777', 'localhost:4777', '[::1]:4777'])
      expect((await app.request('/api/lessons', { headers: { host } })).status).toBe(200);
  });

  it('refuses changes from a foreign Origin, cross-site fetches and non-JSON bodies', async () => {
    const { app } = createAppSandbox();
    const body = { summary: 'a lesson' };
    const foreign = await app.request('/api/lessons', {
      method: 'POST',
      headers: { origin: 'http://evil.example' },
      body,
    });
    expect(foreign.status).toBe(403);
    expect(foreign.json<ErrorBody>().error.code).toBe('bad-origin');
    const otherPort = await app.request('/api/lessons', {
      method: 'POST',
      headers: { origin: 'http://127.0.0.1:9999' },
      body,
    });
    expect(otherPort.status).toBe(403);
    const crossSite = await app.request('/api/lessons', {
      method: 'POST',
      headers: { 'sec-fetch-site': 'cross-site' },
      body,
    });
    expect(crossSite.status).toBe(403);
    const form = await app.request('/api/lessons', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'summary=x',
    });
    expect(form.status).toBe(415);
    expect((await app.request('/api/lessons')).json<{ total: number }>().total).toBe(0);
    const same = await app.request('/api/lessons', {
      method: 'POST',
      headers: { origin: 'http://127.0.0.1:4777' },
      body,
    });
    expect(same.status).toBe(201);
  });

  it('serves only the dashboard files and refuses path traversal', async () => {
    const { app } = createAppSandbox({ assetsDir: assetsDir() });
    const page = await app.request('/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect((await app.request('/assets/app.js')).headers['content-type']).toContain('javascript');
    const attempts = [
      '/../package.json',
      `/../lore-secret-${process.pid}.txt`,
      `/assets/../../lore-secret-${process.pid}.txt`,
      `/%2e%2e/lore-secret-${process.pid}.txt`,
      `/assets/..%2f..%2flore-secret-${process.pid}.txt`,
      '/..%5c..%5cetc%5cpasswd',
      '/assets/%00app.js',
      '/%E0%A4%A',
    ];
    for (const path of attempts) {
      const response = await app.request(path);
      expect({ path, status: response.status }).toEqual({ path, status: 400 });
      expect(response.text()).not.toContain('secret"');
      expect(response.json<ErrorBody>().error.code).toBe('bad-path');
    }
    expect((await app.request('/etc/passwd')).status).toBe(404);
  });

  it('sends a strict Content-Security-Policy and no-sniff on every response', async () => {
    const { app } = createAppSandbox({ assetsDir: assetsDir() });
    expect(CONTENT_SECURITY_POLICY).toContain("default-src 'none'");
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-inline');
    for (const path of ['/', '/api/lessons', '/api/nope', '/../x']) {
      const response = await app.request(path);
      expect(response.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['x-frame-options']).toBe('DENY');
    }
  });
});
