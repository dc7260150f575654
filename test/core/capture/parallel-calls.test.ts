import { describe, expect, it } from 'vitest';
import type { TranscriptEvent } from '../../../src/core/capture/events.js';
import { detectAll, madeUpSession } from '../../helpers/capture-events.js';

/** The episodes a fresh detector finds in `events`, as kind and the lines of their evidence. */
function found(events: TranscriptEvent[]): { kind: string; lines: number[] }[] {
  const episodes = detectAll(events);
  return episodes.map((e) => ({ kind: e.kind, lines: e.evidence.map((ref) => ref.line) }));
}

const edit = (old: string) => ({ file_path: '/repo/README.md', old_string: old, new_string: 'x' });

describe('calls made before a failure was seen', () => {
  it.each<[string, () => TranscriptEvent[], { kind: string; lines: number[] }[]]>([
    [
      // Claude Code's parallel Edits: the second was chosen with the first, not after its error.
      'a parallel Edit of the same file is no fix of the one that failed',
      () => {
        const s = madeUpSession();
        const a = s.call('Edit', edit('## File Naming'));
        const b = s.call('Edit', edit('**Last Updated:**'));
        return [
          a,
          b,
          s.result(a, false, 'String to replace not found in file.', 'tool-use-error'),
          s.result(b, true, 'updated', 'none'),
        ];
      },
      [],
    ],
    [
      'the same Edit made after the error was seen is its fix',
      () => {
        const s = madeUpSession();
        return [
          ...s.fail('Edit', edit('## File Naming'), 'String to replace not found in file.', 'tool-use-error'),
          ...s.ok('Edit', edit('## File naming')),
        ];
      },
      [{ kind: 'error-fix', lines: [1, 2, 3, 4] }],
    ],
    [
      'a parallel call enables nothing: the identical retry after it is a transient failure',
      () => {
        const s = madeUpSession();
        const a = s.call('Bash', { command: 'pnpm test' });
        const b = s.call('Bash', { command: 'pnpm install' });
        return [
          a,
          b,
          s.result(a, false, 'Error: Cannot find module vitest', 'exit-code'),
          s.result(b, true, 'done', 'none'),
          ...s.ok('Bash', { command: 'pnpm test' }),
        ];
      },
      [],
    ],
  ])('%s', (_name, events, expected) => {
    expect(found(events())).toEqual(expected);
  });
});
