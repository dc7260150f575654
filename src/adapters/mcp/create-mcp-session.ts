/**
 * What every call to `lore mcp` shares: one workspace, opened on first use, and one queue, so calls
 * run one at a time against it (src/core/create-serial-queue.ts, as in the HTTP app). The index is
 * refreshed from the files when a call follows a change seen by the file watch, one of our own
 * writes, or a long quiet spell.
 */
import { statSync } from 'node:fs';
import { createSerialQueue } from '../../core/create-serial-queue.js';
import { collectLearnings, sessionIdFrom } from '../../store/inject/learnings-sidecar.js';
import type { Learning } from '../../store/inject/learnings-sidecar.js';
import { watchLessons } from '../../store/workspace/watch-lessons.js';
import type { LessonWatch } from '../../store/workspace/watch-lessons.js';
import type { Workspace } from '../../store/workspace/workspace.js';
import { fileSignature } from '../../store/fs/file-signature.js';
import type { McpDeps } from './create-mcp-server.js';

export type McpSession = {
  /** The agent's session (LORE_SESSION_ID and friends), when known: the sidecar dedups in it. */
  sessionId: string | undefined;
  /** Runs `fn` after every earlier call, with a fresh enough index. */
  run<T>(fn: (ws: Workspace) => Promise<T>): Promise<T>;
  /** The workspace as it is, opened if need be, outside the queue and without a refresh. */
  peek(): Promise<Workspace>;
  /** After a write of ours: the next call looks at the files again. */
  wrote(): void;
  /** The learnings sidecar for `paths`, leaving out `exclude` (the lessons the answer carries). */
  learningsFor(
    ws: Workspace,
    paths: readonly string[],
    exclude: Iterable<string>,
    tool: string,
  ): Promise<Learning[]>;
  close(): Promise<void>;
};

export function createMcpSession(deps: McpDeps): McpSession {
  const sessionId = sessionIdFrom(deps.env);
  const queue = createSerialQueue();
  let workspace: Promise<Workspace> | undefined;
  let watcher: LessonWatch | undefined;
  let refreshedAt = 0;
  let first = true;
  let changed = true;
  let configStamp = '';

  // The config files' signatures (two stats a call): a changed config.yaml (lore_docs_add writes
  // one, or a person) means the workspace is opened again, since it reads its settings once.
  const configFiles = (ws: Workspace) =>
    ws.tiers.map((tier) => fileSignature(tier.layout.configFile)).join('|');
  // Which cache folders the workspace opened (an inode a tier): one deleted under the server (a
  // `git clean -fdX`, a reset of the throw-away cache) took the open index and the watch on its
  // generation stamp with it, so the workspace is opened again, on the new folder.
  const cacheFolders = (ws: Workspace) =>
    ws.tiers.map((tier) => String(statSync(tier.layout.cacheDir, { throwIfNoEntry: false })?.ino)).join('|');
  let cacheStamp = '';

  const open = (): Promise<Workspace> => {
    workspace ??= deps.openWorkspace().then(
      (ws) => {
        configStamp = configFiles(ws);
        watcher = watchLessons(ws.tiers, () => {
          changed = true;
        });
        return ws;
      },
      (error: unknown) => {
        workspace = undefined;
        throw error;
      },
    );
    return workspace;
  };

  const fresh = async (): Promise<Workspace> => {
    let ws = await open();
    if (configFiles(ws) !== configStamp || (!first && cacheFolders(ws) !== cacheStamp)) {
      watcher?.close();
      ws.close();
      workspace = undefined;
      first = true;
      ws = await open();
    }
    const interval = deps.refreshMs ?? (watcher?.complete === false ? 2000 : 30_000);
    if (first) {
      // the first run (the server's warm-up): ready() refreshes a fresh workspace's index once, as
      // every CLI read does
      first = false;
      changed = false;
      await ws.ready();
      refreshedAt = deps.now();
    } else if (changed || deps.now() - refreshedAt > interval) {
      changed = false;
      ws.index.invalidate();
      await ws.ready();
      await ws.index.refresh();
      refreshedAt = deps.now();
    }
    // taken once the index is open (a first refresh may have made the folder)
    cacheStamp = cacheFolders(ws);
    return ws;
  };

  return {
    sessionId,
    run: (fn) => queue(async () => fn(await fresh())),
    peek: open,
    wrote() {
      changed = true;
    },
    learningsFor: (ws, paths, exclude, tool) =>
      collectLearnings(
        ws,
        paths,
        new Set(exclude),
        {
          sessionId,
          tmpdir: deps.tmpdir,
          uid: deps.uid,
          nowMs: deps.now(),
          cap: ws.config.inject.maxLessons,
        },
        tool,
      ),
    async close() {
      watcher?.close();
      if (workspace) (await workspace.catch(() => undefined))?.close();
    },
  };
}
