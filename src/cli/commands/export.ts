import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { LoreError } from '../../core/errors.js';
import { STATUSES, TIERS } from '../../core/lesson/constants.js';
import { choiceOption, stringOption } from '../command.js';
import type { Command } from '../command.js';
import { noteProblems, openCommandWorkspace } from '../open-workspace.js';
import { writeFileAtomic } from '../../store/fs-atomic.js';
import { EXPORT_FORMAT, EXPORT_VERSION } from '../../store/lore-json.js';

export const command: Command = {
  spec: {
    usage: 'lore export [--out F] [--tier T] [--status S|any] [--json]',
    description:
      "Writes lessons with their votes as lore's JSON ({format, version, exportedAt, lessons}), to stdout or\n" +
      'to F. Every status is included unless --status narrows it. `lore import F` reads it back losslessly.',
    options: {
      out: { type: 'string', value: 'F', description: 'write to file F instead of stdout' },
      tier: { type: 'string', value: 'T', description: TIERS.join(' | ') },
      status: { type: 'string', value: 'S', description: `${STATUSES.join(' | ')} | any (default any)` },
    },
    positionals: { min: 0, max: 0, names: '' },
    json: true,
  },
  async run(ctx, args) {
    const status = choiceOption(args, 'status', [...STATUSES, 'any'] as const) ?? 'any';
    const tier = choiceOption(args, 'tier', TIERS);
    const ws = await openCommandWorkspace(ctx);
    try {
      const items = await ws.index.list({ status, tier }, ctx.now(), ws.halfLifeDays);
      await noteProblems(ctx, ws);
      const lessons = items
        .map((item) => ({
          ...item.lesson,
          votes: ws.store(item.lesson.tier).readVotes(item.lesson.id).votes,
        }))
        .sort((a, b) => (a.tier === b.tier ? (a.id < b.id ? -1 : 1) : a.tier === 'project' ? -1 : 1));
      const document = {
        format: EXPORT_FORMAT,
        version: EXPORT_VERSION,
        exportedAt: new Date(ctx.now()).toISOString(),
        lessons,
      };
      const out = stringOption(args, 'out');
      if (out === undefined) {
        return { data: document, text: JSON.stringify(document, null, 2) };
      }
      const path = resolve(ctx.cwd, out);
      if (!existsSync(dirname(path))) {
        throw new LoreError('io', `cannot write ${out}: directory ${dirname(path)} does not exist`, {
          hint: 'create it first, or pick another --out path',
        });
      }
      writeFileAtomic(path, `${JSON.stringify(document, null, 2)}\n`);
      return {
        data: { out: path, lessons: lessons.length },
        text: `exported ${lessons.length} lesson(s) to ${out}`,
      };
    } finally {
      ws.close();
    }
  },
};
