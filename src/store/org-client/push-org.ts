/**
 * `lore push`: lessons of this machine go up to the organisation server. By default every
 * user-tier lesson (universal ones included); named lessons with IDS; project lessons only with
 * `--from-project` (they travel with git otherwise), filed under the project's name. Each lesson
 * carries the version this machine last saw of it, so the server refuses an update over someone
 * else's newer one (pull, then push again). Sent in batches under the server's body limit; the
 * versions the server acknowledged are remembered for the next push.
 */
import { LoreError } from '../../core/errors.js';
import type { Lesson, Tier } from '../../core/lesson/schema.js';
import { orgTierDir } from '../fs/paths.js';
import { resolveLesson } from '../lessons/lesson-writes.js';
import type { Workspace } from '../workspace/workspace.js';
import type { OrgClient, PushItem, PushResult } from './org-client.js';
import { readOrgState, updateRemoteState } from './org-state.js';

export const PUSH_BATCH = 500;
/**
 * The server reads request bodies of at most 1 MB (MAX_BODY in serve-http.ts) and refuses a
 * larger one whole with a 413: a batch's lessons stay under this many bytes of JSON, which leaves
 * room for the rest of the body (`{"lessons": [...], "project": ...}`). 400 lessons of a 3 KB body
 * each were one 1.5 MB request that pushed nothing.
 */
export const PUSH_BATCH_BYTES = 1024 * 1024 - 16 * 1024;

export type PushPlan = { batches: PushItem[][]; tooLarge: Array<{ item: PushItem; bytes: number }> };

/**
 * Push items in batches of at most `count` items and `bytes` bytes of JSON, in order; an item that
 * alone is over `bytes` goes in no batch (the server could never take it) and is reported by itself.
 */
export function planPushBatches(
  items: readonly PushItem[],
  limits: { count: number; bytes: number } = { count: PUSH_BATCH, bytes: PUSH_BATCH_BYTES },
): PushPlan {
  const plan: PushPlan = { batches: [], tooLarge: [] };
  let batch: PushItem[] = [];
  let size = 0;
  for (const item of items) {
    const bytes = Buffer.byteLength(JSON.stringify(item)) + 1; // and its comma
    if (bytes > limits.bytes) {
      plan.tooLarge.push({ item, bytes });
      continue;
    }
    if (batch.length > 0 && (batch.length >= limits.count || size + bytes > limits.bytes)) {
      plan.batches.push(batch);
      batch = [];
      size = 0;
    }
    batch.push(item);
    size += bytes;
  }
  if (batch.length > 0) plan.batches.push(batch);
  return plan;
}

function tooLargeResult({ item, bytes }: { item: PushItem; bytes: number }): PushResult {
  return {
    id: item.lesson.id,
    outcome: 'invalid',
    version: null,
    state: null,
    message: `is ${Math.ceil(bytes / 1024)} KB as JSON, more than the organisation server takes in one request (1 MB): shorten its body, or split it into several lessons`,
  };
}

export type PushOptions = {
  refs: readonly string[];
  fromProject: boolean;
  project: string | undefined;
  nowMs: number;
};
export type PushReport = { remote: string; url: string; results: PushResult[]; project: string | null };

type Chosen = { tier: Tier; lesson: Lesson };

async function chooseLessons(ws: Workspace, options: PushOptions): Promise<Chosen[]> {
  if (options.refs.length > 0) {
    const chosen: Chosen[] = [];
    for (const ref of options.refs) {
      const found = await resolveLesson(ws, ref);
      if (found.tier === 'org')
        throw new LoreError('usage', `${found.id} is already an organisation lesson (pulled)`, {
          hint: 'change it on the server, or push a user-tier copy of your own',
        });
      if (found.tier === 'project' && !options.fromProject)
        throw new LoreError(
          'usage',
          `${found.id} is a project lesson: it travels with the repository's git`,
          {
            hint: `to share it with the whole organisation too: lore push ${ref} --from-project`,
          },
        );
      chosen.push({ tier: found.tier, lesson: found.lesson });
    }
    return chosen;
  }
  await ws.ready();
  const listed = await ws.index.list({ status: 'any' }, options.nowMs, ws.halfLifeDays);
  return listed
    .filter((item) => item.lesson.tier === 'user' || (options.fromProject && item.lesson.tier === 'project'))
    .map((item) => ({ tier: item.lesson.tier, lesson: item.lesson }));
}

export async function pushOrg(
  ws: Workspace,
  loreHome: string,
  remote: { name: string; url: string },
  client: OrgClient,
  options: PushOptions,
): Promise<PushReport> {
  const chosen = await chooseLessons(ws, options);
  const hasProject = chosen.some((item) => item.tier === 'project');
  if (hasProject && options.project === undefined)
    throw new LoreError('usage', 'project lessons need a project name on the server', {
      hint: 'pass --project NAME',
    });
  const orgDir = orgTierDir(loreHome);
  // the versions this machine knows, as base versions; acknowledgements go back under the state lock
  const known = { ...readOrgState(orgDir).remotes[remote.name]?.known };
  const results: PushResult[] = [];
  // Project lessons are filed under the project; user lessons under the whole organisation.
  for (const group of [
    chosen.filter((c) => c.tier !== 'project'),
    chosen.filter((c) => c.tier === 'project'),
  ]) {
    const items = group.map(({ tier, lesson }): PushItem => {
      const base = known[lesson.id];
      // this machine's votes go up with the lesson: votes from many users merge on the server
      const votes = ws
        .store(tier)
        .readVotes(lesson.id)
        .votes.map((vote) => ({ model: vote.model, task: vote.task }));
      return {
        lesson,
        ...(base === undefined ? {} : { baseVersion: base }),
        ...(votes.length > 0 ? { votes } : {}),
      };
    });
    const plan = planPushBatches(items);
    results.push(...plan.tooLarge.map(tooLargeResult));
    const project = group[0]?.tier === 'project' ? options.project : undefined;
    for (const batch of plan.batches) {
      const answered = await client.push(batch, project);
      const acknowledged: Record<string, number> = {};
      for (const result of answered)
        if (
          result.id !== null &&
          result.version !== null &&
          ['created', 'updated', 'unchanged'].includes(result.outcome)
        )
          acknowledged[result.id] = result.version;
      results.push(...answered);
      // what the server acknowledged is remembered batch by batch (an interrupted push resumes
      // cleanly), merged into the file as it is now: a pull running meanwhile loses none of it
      updateRemoteState(orgDir, remote.name, (mine) => Object.assign(mine.known, acknowledged));
    }
  }
  return {
    remote: remote.name,
    url: remote.url,
    results,
    project: hasProject ? (options.project ?? null) : null,
  };
}
