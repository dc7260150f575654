import { attachFeedback } from '../../core/injection-record.js';
import type { InjectionRecord } from '../../core/injection-record.js';
import { readFeedback } from '../../store/lessons/feedback.js';
import { readInjections } from '../../store/lessons/injection-log.js';
import { resolveLesson } from '../../store/lessons/lesson-writes.js';
import { stringOption } from '../command.js';
import type { Command } from '../command.js';
import { openCommandWorkspace } from '../open-workspace.js';

export const command: Command = {
  spec: {
    usage: 'lore injections [--task T] [--lesson ID] [--json]',
    description:
      'Lists which lessons were shown to which task or session, by which channel (prompt: `lore prompt\n' +
      '--task/--session`; hook; mcp: the learnings sidecar), with the feedback each got for that task\n' +
      '(`lore feedback ID --helpful|--not-helpful --task T`). One record per lesson and task for the pre-prompt;\n' +
      'hooks and MCP are read from the audit log, filed under session:ID. Oldest first.',
    options: {
      task: { type: 'string', value: 'T', description: 'only records of this task (or session:ID)' },
      lesson: {
        type: 'string',
        value: 'ID',
        description: 'only records of this lesson (id, prefix or slug)',
      },
    },
    positionals: { min: 0, max: 0, names: '' },
    json: true,
    examples: ['lore injections --task PROJ-42', 'lore injections --lesson 7m2k --json'],
  },
  async run(ctx, args) {
    const ws = await openCommandWorkspace(ctx);
    try {
      const task = stringOption(args, 'task')?.trim();
      const ref = stringOption(args, 'lesson');
      const lesson = ref === undefined ? undefined : (await resolveLesson(ws, ref)).id;
      const records = readInjections(ws.cacheDir).filter(
        (record) =>
          (task === undefined || record.task === task) && (lesson === undefined || record.lesson === lesson),
      );
      const feedback = new Map<string, { task: string; helpful: boolean; at: string }[]>();
      for (const id of new Set(records.map((record) => record.lesson))) {
        const found = await resolveLesson(ws, id).catch(() => undefined);
        if (found) feedback.set(id, readFeedback(ws, found));
      }
      const injections = attachFeedback(records, feedback);
      return {
        data: { injections },
        text: injections.map(formatRecord).join('\n') || 'no injections recorded',
      };
    } finally {
      ws.close();
    }
  },
};

function formatRecord(record: InjectionRecord): string {
  const verdict = record.feedback === null ? '' : record.feedback.helpful ? '  helpful' : '  not helpful';
  return `${record.at}  ${record.channel.padEnd(6)}  ${record.lesson}  ${record.task}${verdict}`;
}
