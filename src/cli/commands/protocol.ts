import { homedir } from 'node:os';
import { AGENTS } from '../../core/capture/events.js';
import type { ProtocolReport } from '../../core/capture/lesson-protocol.js';
import { choiceOption, existingPaths } from '../command.js';
import type { Command } from '../command.js';

export const command: Command = {
  spec: {
    usage: 'lore protocol [--source claude-code|codex|gemini] [--path DIR]... [--json]',
    description:
      'Reports how often agents follow the #lesson protocol (the block told at session start): sessions read,\n' +
      'sessions with a block, well-formed blocks per session, and malformed blocks (an opener never closed, or\n' +
      'a block with neither a mistake nor a fix, which `lore scan` cannot use). Reads the transcripts whole\n' +
      "and stores nothing; the default folders are `lore scan`'s.",
    options: {
      source: { type: 'string', value: AGENTS.join('|'), description: "only this agent's transcripts" },
      path: {
        type: 'string',
        multiple: true,
        value: 'DIR',
        description: 'read this folder or file instead of the default folders; repeatable',
      },
    },
    positionals: { min: 0, max: 0, names: '' },
    json: true,
    examples: ['lore protocol', 'lore protocol --source codex --json'],
  },
  async run(ctx, args) {
    const source = choiceOption(args, 'source', AGENTS);
    // a misspelt --path is an error naming it, as for `lore scan` and `lore replay`, not a report of 0 sessions
    const paths = existingPaths(args, 'path', ctx.cwd).map((p) => p.path);
    const home = ctx.env.HOME ?? homedir();
    const { defaultRoots } = await import('../../capture/default-roots.js');
    const { reportLessonProtocol } = await import('../../capture/lesson-protocol-report.js');
    const roots = paths.length > 0 ? paths.map((path) => ({ path })) : defaultRoots(ctx.env, home, source);
    let unreadable = 0;
    const report = reportLessonProtocol(roots, source, (path, reason) => {
      unreadable += 1;
      ctx.note(`lore protocol: ${path}: could not be read (${reason.slice(0, 120)}): skipped`);
    });
    return { data: { ...report, unreadable }, text: formatProtocol(report) };
  },
};

function formatProtocol(report: ProtocolReport): string {
  const percent = (n: number) => `${Math.round(n * 100)}%`;
  return [
    `${report.sessions} session(s); ${report.following} with a #lesson block (${percent(report.sessions === 0 ? 0 : report.following / report.sessions)})`,
    `${report.blocks} block(s), ${report.blocksPerSession} per session; ${report.malformed} malformed (${percent(report.malformedRatio)} of the blocks started)`,
    ...report.bySession
      .filter((s) => s.blocks + s.malformed > 0)
      .slice(0, 20)
      .map(
        (s) =>
          `  ${s.agent.padEnd(11)}  ${s.session}  ${s.blocks} block(s)${s.malformed > 0 ? `, ${s.malformed} malformed` : ''}`,
      ),
  ].join('\n');
}
