import { basename } from 'node:path';
import { LoreError } from '../../core/errors.js';
import { resolveLoreHome } from '../../store/fs/paths.js';
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
      'pulled is refused (conflict): run `lore pull`, then push again. Exit 1 when any lesson was refused.',
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
    const [{ createOrgClient }, { pushOrg }] = await Promise.all([
      import('../../store/org-client/org-client.js'),
      import('../../store/org-client/push-org.js'),
    ]);
    const ws = await openCommandWorkspace(ctx);
    try {
      const project =
        stringOption(args, 'project') ?? (ws.projectRoot ? basename(ws.projectRoot) : undefined);
      const report = await pushOrg(ws, home, remote, createOrgClient({ url: remote.url, token }), {
        refs: args.positionals,
        fromProject,
        project,
        nowMs: ctx.now(),
      });
      const count = (outcome: string) => report.results.filter((r) => r.outcome === outcome).length;
      const refused = report.results.filter((r) => !['created', 'updated', 'unchanged'].includes(r.outcome));
      const lines = [
        `pushed to ${remote.name}: ${count('created')} new, ${count('updated')} updated, ${count('unchanged')} unchanged, ${refused.length} refused`,
        ...refused.map((r) => `  ${r.id ?? '?'}: ${r.outcome}: ${r.message ?? ''}`),
        ...(count('created') > 0 && report.results.some((r) => r.state === 'proposed')
          ? ['new lessons wait for a curator to accept them']
          : []),
      ];
      return {
        data: report,
        text: lines.join('\n'),
        ...(refused.length > 0 ? { exitCode: 1 as const } : {}),
      };
    } finally {
      ws.close();
    }
  },
};
