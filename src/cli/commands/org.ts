import { LoreError } from '../../core/errors.js';
import { resolveLoreHome } from '../../store/fs/paths.js';
import { choiceOption, stringOption } from '../command.js';
import type { Command, CommandContext } from '../command.js';
import { orgDbTarget } from '../org-server.js';

const ROLE_CHOICES = ['read', 'write', 'curate', 'admin'] as const;

type TokenAction = {
  action: 'create' | 'revoke';
  user: string;
  role?: (typeof ROLE_CHOICES)[number];
  org?: string;
};

/** Through a running server: the remote's login must be an admin of the organisation. */
async function viaRemote(ctx: CommandContext, remoteName: string, request: TokenAction) {
  const home = resolveLoreHome(ctx.env);
  const { chooseRemote, requireToken } = await import('../../store/org-client/remote-config.js');
  const { createOrgClient } = await import('../../store/org-client/org-client.js');
  const remote = chooseRemote(home, remoteName);
  const client = createOrgClient({ url: remote.url, token: requireToken(home, remote) });
  if (request.action === 'create')
    return { ...(await client.createToken(request.user, request.role as string)), via: remote.url };
  return { ...(await client.revokeToken(request.user)), via: remote.url };
}

/** On the server's side: straight to the database (the embedded store must not be held by a server). */
async function viaDatabase(ctx: CommandContext, target: string, request: TokenAction) {
  const { openOrgDb } = await import('../../store/org/org-db.js');
  const { migrate } = await import('../../store/org/org-migrations.js');
  const { createToken, DEFAULT_ORG, revokeTokens } = await import('../../store/org/org-tokens.js');
  const db = await openOrgDb({ target });
  try {
    await migrate(db);
    const org = request.org ?? DEFAULT_ORG;
    const actor = `lore org token (${ctx.env.USER ?? 'server'})`;
    if (request.action === 'create')
      return {
        ...(await createToken(db, { org, user: request.user, role: request.role ?? 'read', actor })),
        via: db.where,
      };
    return {
      user: request.user,
      org,
      revoked: await revokeTokens(db, { org, user: request.user, actor }),
      via: db.where,
    };
  } finally {
    await db.close();
  }
}

export const command: Command = {
  spec: {
    usage:
      'lore org token create USER --role read|write|curate|admin [--org NAME] [--db URL | --remote NAME]\n' +
      '       lore org token revoke USER [--org NAME] [--db URL | --remote NAME]',
    description:
      'Organisation tokens, made on the server side. `create` prints a new token once (only its hash is\n' +
      'stored); `revoke` refuses every token of the user from the next request on. With --db (or\n' +
      'LORE_ORG_DB, else the embedded store in $LORE_HOME/org-server) the database is changed directly;\n' +
      'the embedded store serves one process, so while `lore serve --org` holds it go through the server\n' +
      'with --remote NAME (logged in with an admin token). Roles: read (pull, search), write (push,\n' +
      'vote), curate (accept proposals, edit, supersede), admin (tokens, audit).',
    options: {
      role: { type: 'string', value: 'ROLE', description: 'read | write | curate | admin (create)' },
      org: {
        type: 'string',
        value: 'NAME',
        description: 'the organisation (default: default; made on first use)',
      },
      db: { type: 'string', value: 'URL', description: 'postgres://... or the embedded store directory' },
      remote: { type: 'string', value: 'NAME', description: 'go through this running server instead' },
    },
    positionals: { min: 3, max: 3, names: 'token create|revoke USER' },
    json: true,
    examples: [
      'lore org token create alice --role curate',
      'lore org token create ci --role read --db postgres://lore@db.internal/lore',
      'lore org token revoke alice --remote acme',
    ],
  },
  async run(ctx, args) {
    const [noun, action, user] = args.positionals;
    if (noun !== 'token' || (action !== 'create' && action !== 'revoke'))
      throw new LoreError(
        'usage',
        'use `lore org token create USER --role ROLE` or `lore org token revoke USER`',
      );
    const role = choiceOption(args, 'role', ROLE_CHOICES);
    if (action === 'create' && role === undefined)
      throw new LoreError('usage', 'lore org token create needs --role read|write|curate|admin');
    const remote = stringOption(args, 'remote');
    const db = stringOption(args, 'db');
    if (remote !== undefined && db !== undefined)
      throw new LoreError('usage', 'pass --db or --remote, not both');
    const org = stringOption(args, 'org');
    if (remote !== undefined && org !== undefined)
      throw new LoreError(
        'usage',
        "--org applies to --db: through a server, tokens belong to the admin's organisation",
      );
    const request: TokenAction = {
      action,
      user: user as string,
      ...(role ? { role } : {}),
      ...(org ? { org } : {}),
    };
    const result =
      remote !== undefined
        ? await viaRemote(ctx, remote, request)
        : await viaDatabase(ctx, orgDbTarget(ctx.env, db), request);
    if (action === 'create') {
      const made = result as { token: string; user: string; role: string; org: string };
      ctx.note(`lore: token for ${made.user} (${made.role}) of ${made.org}; it is shown only now:`);
      return { data: result, text: made.token };
    }
    const revoked = (result as { revoked: number }).revoked;
    return {
      data: result,
      text: revoked > 0 ? `revoked ${revoked} token(s) of ${user}` : `${user} had no live token`,
    };
  },
};
