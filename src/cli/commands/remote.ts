import { LoreError } from '../../core/errors.js';
import { orgTierDir, resolveLoreHome } from '../../store/fs/paths.js';
import { addRemote, readRemotes, removeRemote } from '../../store/org-client/remote-config.js';
import type { Command } from '../command.js';
import { refreshOrgTier } from '../refresh-org-tier.js';

const ACTIONS = ['add', 'list', 'remove'] as const;

export const command: Command = {
  spec: {
    usage: 'lore remote add NAME URL | list [--json] | remove NAME',
    description:
      'The organisation servers (`lore serve --org`) this machine pulls from and pushes to, kept in\n' +
      '$LORE_HOME/remotes.json. After `add`, log in with a token an admin made: `lore login NAME --token T`.\n' +
      '`remove` forgets the server, its token and the lessons pulled from it (no longer injected).',
    options: {},
    positionals: { min: 1, max: 3, names: 'add NAME URL | list | remove NAME' },
    json: true,
    examples: [
      'lore remote add acme https://lore.acme.internal',
      'lore remote list',
      'lore remote remove acme',
    ],
  },
  async run(ctx, args) {
    const [action, name, url] = args.positionals;
    if (!(ACTIONS as readonly string[]).includes(action ?? ''))
      throw new LoreError('usage', `unknown action "${action}"; use ${ACTIONS.join(', ')}`);
    const home = resolveLoreHome(ctx.env);
    if (action === 'list') {
      const remotes = readRemotes(home);
      return {
        data: { remotes },
        text:
          remotes.length === 0
            ? 'no remotes; add one with `lore remote add NAME URL`'
            : remotes.map((r) => `${r.name}  ${r.url}`).join('\n'),
      };
    }
    if (name === undefined) throw new LoreError('usage', `lore remote ${action} needs a NAME`);
    if (action === 'remove') {
      const removed = removeRemote(home, name);
      if (!removed) throw new LoreError('not-found', `no remote named "${name}"`);
      // its lessons leave the org tier too: nothing else could remove them once it is gone
      const { dropRemoteLessons } = await import('../../store/org-client/pull-org.js');
      const lessons = dropRemoteLessons(home, name);
      // Votes cast on those lessons and not pushed yet: no server will take them now, and `lore push`
      // to another remote would retry them there forever (or until it says not-found).
      const { dropPendingVotesOn } = await import('../../store/org-client/org-local.js');
      const droppedVotes = dropPendingVotesOn(orgTierDir(home), lessons).map(({ id, model, task }) => ({
        id,
        model,
        task,
      }));
      await refreshOrgTier(ctx, home);
      return {
        data: { removed: name, lessons, droppedVotes },
        text:
          `removed remote ${name}, its token and the ${lessons.length} lesson(s) pulled from it` +
          (droppedVotes.length > 0
            ? `\ndropped ${droppedVotes.length} vote(s) on them that were waiting for \`lore push\`: ${[...new Set(droppedVotes.map((v) => v.id))].join(', ')}`
            : ''),
      };
    }
    if (url === undefined) throw new LoreError('usage', 'lore remote add needs a NAME and a URL');
    const { remote, replaced } = addRemote(home, name, url);
    return {
      data: { remote, replaced },
      text: `${replaced ? 'changed' : 'added'} remote ${remote.name} -> ${remote.url}\nnext: lore login ${remote.name} --token T`,
    };
  },
};
