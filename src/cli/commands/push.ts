import { basename } from 'node:path';
import { LoreError } from '../../core/errors.js';
import { orgTierDir, resolveLoreHome } from '../../store/fs/paths.js';
import type { VotePushReport } from '../../store/org-client/push-votes.js';
import { chooseRemote, requireToken } from '../../store/org-client/remote-config.js';
import { flagOption, stringOption } from '../command.js';
import type { Command } from '../command.js';
import { openCommandWorkspace } from '../open-workspace.js';

export const command: Command = {
  spec: {
    usage: 'lore push [IDS...] [--remote NAME] [--from-project [--project NAME]] [--json]',
    description:
      'Sends lessons to the organisation server: without IDS every user-tier lesson (universal ones\n' +
      'included). A project lesson goes only with --from-project (it travels with git otherwise), filed\n' +
      "under --project (default: the repository's folder name). A writer's new lessons wait for a\n" +
      "curator; a curator's are accepted at once. A lesson someone changed on the server since you last\n" +
      'pulled is refused (conflict): run `lore pull`, then push again. Votes cast here on organisation\n' +
      'lessons (lore upvote) go up too, once each; offline they wait for the next push. Exit 1 when any\n' +
      'lesson was refused or the votes could not all be sent.',
    options: {
      remote: { type: 'string', value: 'NAME', description: 'the remote (default: the only one)' },
      'from-project': { type: 'boolean', description: 'push project lessons too (or the named ones)' },
      project: { type: 'string', value: 'NAME', description: "the project's name on the server" },
    },
    positionals: { min: 0, max: 1000, names: '[IDS...]' },
    json: true,
    examples: ['lore push', 'lore push 7m2k', 'lore push 9x3f --from-project'],
  },
  async run(ctx, args) {
    const home = resolveLoreHome(ctx.env);
    const remote = chooseRemote(home, stringOption(args, 'remote'));
    const token = requireToken(home, remote);
    const fromProject = flagOption(args, 'from-project');
    if (stringOption(args, 'project') !== undefined && !fromProject)
      throw new LoreError('usage', '--project applies to --from-project only');
    const [{ createOrgClient }, { pushOrg }, { pushPendingVotes }] = await Promise.all([
      import('../../store/org-client/org-client.js'),
      import('../../store/org-client/push-org.js'),
      import('../../store/org-client/push-votes.js'),
    ]);
    const ws = await openCommandWorkspace(ctx);
    try {
      const project =
        stringOption(args, 'project') ?? (ws.projectRoot ? basename(ws.projectRoot) : undefined);
      const client = createOrgClient({ url: remote.url, token });
      const pushed = await pushOrg(ws, home, remote, client, {
        refs: args.positionals,
        fromProject,
        project,
        nowMs: ctx.now(),
      });
      const votes = await pushPendingVotes(orgTierDir(home), client);
      const report = { ...pushed, votes };
      const count = (outcome: string) => report.results.filter((r) => r.outcome === outcome).length;
      const refused = report.results.filter((r) => !['created', 'updated', 'unchanged'].includes(r.outcome));
      const lines = [
        `pushed to ${remote.name}: ${count('created')} new, ${count('updated')} updated, ${count('unchanged')} unchanged, ${refused.length} refused`,
        ...refused.map((r) => `  ${r.id ?? '?'}: ${r.outcome}: ${r.message ?? ''}`),
        ...(count('created') > 0 && report.results.some((r) => r.state === 'proposed')
          ? ['new lessons wait for a curator to accept them']
          : []),
        ...voteLines(votes),
      ];
      return {
        data: report,
        text: lines.join('\n'),
        ...(refused.length > 0 || votes.error !== null ? { exitCode: 1 as const } : {}),
      };
    } finally {
      ws.close();
    }
  },
};

function voteLines(votes: VotePushReport): string[] {
  if (votes.sent + votes.dropped.length + votes.pending === 0) return [];
  return [
    `organisation votes: ${votes.sent} sent (${votes.added} new on the server), ${votes.dropped.length} dropped, ${votes.pending} still waiting`,
    ...votes.dropped.map((d) => `  ${d.id}: vote of ${d.model} for ${d.task} dropped: ${d.reason}`),
    ...(votes.error !== null ? [`  votes not sent: ${votes.error} (they wait for the next push)`] : []),
  ];
}
