import { LoreError } from '../../core/errors.js';
import { resolveLoreHome } from '../../store/fs/paths.js';
import { chooseRemote, saveToken } from '../../store/org-client/remote-config.js';
import { stringOption } from '../command.js';
import type { Command } from '../command.js';

export const command: Command = {
  spec: {
    usage: 'lore login NAME [--token T]   (without --token: the token on stdin)',
    description:
      'Stores the token for an organisation remote in $LORE_HOME/credentials.json (mode 0600), after\n' +
      'checking it with the server. Without --token the token is read from stdin, so it stays out of\n' +
      'your shell history: `lore login acme < token.txt`.',
    options: { token: { type: 'string', value: 'T', description: 'the token (default: read from stdin)' } },
    positionals: { min: 1, max: 1, names: 'NAME' },
    json: true,
    examples: ['lore login acme --token lore_...', 'pass show lore/acme | lore login acme'],
  },
  async run(ctx, args) {
    const home = resolveLoreHome(ctx.env);
    const remote = chooseRemote(home, args.positionals[0]);
    // a token pasted with its header's scheme (`Bearer lore_...`, from a curl line) is the token
    const token = (stringOption(args, 'token') ?? (await ctx.readStdin())).trim().replace(/^Bearer\s+/i, '');
    if (token === '')
      throw new LoreError('usage', 'no token given', { hint: 'pass --token T, or pipe the token on stdin' });
    // it travels in an HTTP header: a second line or a space would fail there as "cannot reach"
    if (!/^[\x21-\x7e]+$/.test(token))
      throw new LoreError(
        'usage',
        `a token is one word of printable ASCII characters; this one holds ${/\s/.test(token) ? 'a space or a line break' : 'other characters'}`,
        { hint: 'pass the token alone (lore_...): --token T, or a file holding only it on stdin' },
      );
    const { createOrgClient } = await import('../../store/org-client/org-client.js');
    const who = await createOrgClient({ url: remote.url, token }).whoami();
    const file = saveToken(home, remote.name, token);
    return {
      data: {
        remote: remote.name,
        url: remote.url,
        org: who.org,
        user: who.user,
        role: who.role,
        credentials: file,
      },
      text: `logged in to ${remote.name} (${remote.url}) as ${who.user} of ${who.org}, role ${who.role}; token saved in ${file} (mode 0600)`,
    };
  },
};
