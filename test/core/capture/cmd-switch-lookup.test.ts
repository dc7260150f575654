import { describe, expect, it } from 'vitest';
import { draftCandidate } from '../../../src/core/capture/draft-candidate.js';
import type { TranscriptEvent } from '../../../src/core/capture/events.js';
import { detectAll, madeUpSession } from '../../helpers/capture-events.js';

function found(events: TranscriptEvent[]) {
  const episodes = detectAll(events);
  return episodes.map((e) => ({
    kind: e.kind,
    lines: e.evidence.map((ref) => ref.line),
    summary: draftCandidate(e).summary,
  }));
}

const dir = 'dir /s /b "C:\\Users\\me\\*Black Sun*.mp3" 2>nul';
const SWITCH_MISSING =
  "dir: cannot access '/s': No such file or directory\ndir: cannot access '/b': No such file or directory";

describe("a lookup in cmd's syntax that Git Bash misread, and the search tool that found it", () => {
  it.each<[string, () => TranscriptEvent[], ReturnType<typeof found>]>([
    [
      'Glob after `dir /s /b` said a switch was missing: Glob is the replacement',
      () => {
        const s = madeUpSession();
        return [
          ...s.fail('Bash', { command: dir }, SWITCH_MISSING),
          ...s.ok(
            'Glob',
            { pattern: '**/*Black*Sun*.mp3', path: 'C:\\Users\\me' },
            'C:\\Users\\me\\Downloads\\Black Sun.mp3',
          ),
        ];
      },
      [
        {
          kind: 'error-fix',
          lines: [1, 2, 3, 4],
          summary:
            'Use Glob (`**/*Black*Sun*.mp3`) instead of Bash (`dir /s /b "C:\\Users\\me\\*Black Sun*.mp3" 2>nul`): it failed with "dir: cannot access \'/s\': No such file or directory"',
        },
      ],
    ],
    [
      'the file itself not there is the answer: Glob after it is a new search',
      () => {
        const s = madeUpSession();
        return [
          ...s.fail(
            'Bash',
            { command: 'ls "C:\\Users\\me\\Black Sun.mp3"' },
            "ls: cannot access 'C:\\Users\\me\\Black Sun.mp3': No such file or directory",
          ),
          ...s.ok('Glob', { pattern: '**/*Black*Sun*.mp3' }, 'C:\\Users\\me\\Downloads\\Black Sun.mp3'),
        ];
      },
      [],
    ],
  ])('%s', (_name, events, expected) => {
    expect(found(events())).toEqual(expected);
  });
});
