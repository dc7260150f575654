/**
 * An in-process dashboard app over a temporary repository: `.lore/` initialised, a HOME of its
 * own, lessons added through the store, and candidates scanned from a fixture transcript.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onTestFinished } from 'vitest';
import { createApp } from '../../src/adapters/http/create-app.js';
import type { App } from '../../src/adapters/http/create-app.js';
import { captureCandidates, captureTargetOf } from '../../src/capture/capture-candidates.js';
import { initTier } from '../../src/store/workspace/init-tier.js';
import { addLesson } from '../../src/store/lessons/lesson-writes.js';
import type { LessonDraft } from '../../src/store/lessons/lesson-writes.js';
import { tierLayout } from '../../src/store/fs/paths.js';
import { openWorkspace } from '../../src/store/workspace/workspace.js';
import type { Workspace } from '../../src/store/workspace/workspace.js';

export const NOW = Date.parse('2026-11-22T12:00:00.000Z');
export const FIXTURE_TRANSCRIPT = fileURLToPath(
  new URL(
    '../fixtures/transcripts/claude-code/d-kimuson__claude-code-viewer__5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl',
    import.meta.url,
  ),
);

export type AppSandbox = {
  base: string;
  repo: string;
  env: NodeJS.ProcessEnv;
  app: App;
  /** A workspace of the same repository, for checking what the API wrote. */
  open(): Promise<Workspace>;
  add(draft: LessonDraft): Promise<string>;
  scanFixture(): Promise<void>;
};

export function createAppSandbox(
  options: { token?: string; assetsDir?: string; now?: () => number } = {},
): AppSandbox {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'lore-http-')));
  onTestFinished(() => rmSync(base, { recursive: true, force: true }));
  const repo = join(base, 'repo');
  const home = join(base, 'home');
  mkdirSync(join(repo, '.git'), { recursive: true });
  mkdirSync(home);
  initTier(tierLayout(join(repo, '.lore')));
  const env: NodeJS.ProcessEnv = { HOME: home, LORE_HOME: join(home, '.lore'), TZ: 'UTC' };
  const app = createApp({
    cwd: repo,
    env,
    policy: { token: options.token },
    now: options.now ?? (() => NOW),
    ...(options.assetsDir ? { assetsDir: options.assetsDir } : {}),
  });
  const open = async () => {
    const ws = await openWorkspace({ cwd: repo, env });
    await ws.ready();
    return ws;
  };
  return {
    base,
    repo,
    env,
    app,
    open,
    async add(draft) {
      const ws = await open();
      try {
        return (await addLesson(ws, draft, { tier: 'project', nowMs: NOW - 86_400_000 })).id;
      } finally {
        ws.close();
      }
    },
    async scanFixture() {
      const ws = await open();
      try {
        await captureCandidates(captureTargetOf(ws), {
          roots: [{ path: FIXTURE_TRANSCRIPT }],
          explicit: true,
          nowMs: NOW,
          home,
        });
      } finally {
        ws.close();
      }
    },
  };
}
