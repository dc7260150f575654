/**
 * `lore push`: lessons of this machine go up to the organisation server. By default every
 * user-tier lesson (universal ones included); named lessons with IDS; project lessons only with
 * `--from-project` (they travel with git otherwise), filed under the project's name. Each lesson
 * carries the version this machine last saw of it, so the server refuses an update over someone
 * else's newer one (pull, then push again). Sent in batches; the versions the server acknowledged
 * are remembered for the next push.
 */
import { LoreError } from '../../core/errors.js';
import type { Lesson, Tier } from '../../core/lesson/schema.js';
import { orgTierDir } from '../fs/paths.js';
import { resolveLesson } from '../lessons/lesson-writes.js';
import type { Workspace } from '../workspace/workspace.js';
import type { OrgClient, PushResult } from './org-client.js';
import { readOrgState, updateRemoteState } from './org-state.js';

export const PUSH_BATCH = 500;

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
    for (let at = 0; at < group.length; at += PUSH_BATCH) {
      const batch = group.slice(at, at + PUSH_BATCH).map(({ tier, lesson }) => {
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
      const project = group[0]?.tier === 'project' ? options.project : undefined;
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
