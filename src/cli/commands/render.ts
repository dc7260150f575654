import { resolve } from 'node:path';
import { flagOption, stringOption } from '../command.js';
import type { Command } from '../command.js';
import { openCommandWorkspace } from '../open-workspace.js';
import { renderViews } from '../../store/views/workspace-views.js';

export const command: Command = {
  spec: {
    usage: 'lore render [--out PATH] [--check] [--json]',
    description:
      'Writes LEARNINGS.md at the repository root (config views.out): the active lessons by category, newest first,\n' +
      'each with its id, summary, and tier and severity badges. Also keeps a managed section (between\n' +
      '<!-- lore:begin --> and <!-- lore:end -->) in each file of views.agentFiles (AGENTS.md, CLAUDE.md, GEMINI.md),\n' +
      'for agents without hooks; the rest of those files is never changed. A file with broken markers is refused.\n' +
      'With views.render: true in .lore/config.yaml, every lesson write renders them again.',
    options: {
      out: {
        type: 'string',
        value: 'PATH',
        description: 'write the LEARNINGS view here instead (relative to the working directory)',
      },
      check: {
        type: 'boolean',
        description: 'write nothing; exit 1 when a view is missing or out of date (for CI)',
      },
    },
    positionals: { min: 0, max: 0, names: '' },
    json: true,
    examples: ['lore render', 'lore render --check', 'lore render --out docs/LEARNINGS.md'],
  },
  async run(ctx, args) {
    const rawOut = stringOption(args, 'out');
    const check = flagOption(args, 'check');
    const ws = await openCommandWorkspace(ctx);
    try {
      const report = await renderViews(ws, {
        out: rawOut === undefined ? undefined : resolve(ctx.cwd, rawOut),
        check,
        nowMs: ctx.now(),
      });
      const files = report.files.map((file) => ({ ...file, path: ws.displayPath(file.path) }));
      const stale = files.filter((file) => file.status !== 'unchanged');
      const verb = {
        created: check ? 'missing' : 'created',
        updated: check ? 'out of date' : 'updated',
        unchanged: 'up to date',
      };
      const lines = files.map(
        (file) => `${verb[file.status]}: ${file.path}${file.kind === 'section' ? ' (managed section)' : ''}`,
      );
      lines.push(`${report.lessons} active lesson(s)`);
      if (check && stale.length > 0) lines.push('run `lore render` to update them');
      return {
        data: { files, lessons: report.lessons, check, upToDate: stale.length === 0 },
        text: lines.join('\n'),
        exitCode: check && stale.length > 0 ? 1 : 0,
      };
    } finally {
      ws.close();
    }
  },
};
