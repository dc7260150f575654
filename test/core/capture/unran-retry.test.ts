import { describe, expect, it } from 'vitest';
import type { TranscriptEvent } from '../../../src/core/capture/events.js';
import { detectAll, madeUpSession } from '../../helpers/capture-events.js';

function found(events: TranscriptEvent[]) {
  const episodes = detectAll(events);
  return episodes.map((e) => ({
    kind: e.kind,
    lines: e.evidence.map((ref) => ref.line),
    fix: e.fix?.input.command,
  }));
}

const CYGPATH =
  "Command failed: cygpath -u 'C:\\Users\\me\\AppData\\Local\\Temp'\n0 [main] cygpath child_copy: cygheap read copy failed";
const short = 'echo "8E1F899571345D06:6:" | gpg --import-ownertrust';
const full = 'echo "5B1BF235371B381710F9DAC68E1F899571345D06:6:" | gpg --import-ownertrust';

describe('a changed retry the harness never ran', () => {
  it.each<[string, () => TranscriptEvent[], ReturnType<typeof found>]>([
    [
      'the changed retry is the fix, as the agent wrote it',
      () => {
        const s = madeUpSession();
        return [
          ...s.fail('Bash', { command: short }, "gpg: error in '[stdin]': invalid fingerprint"),
          ...s.fail('Bash', { command: full }, CYGPATH, 'error-flag'),
        ];
      },
      [{ kind: 'error-fix', lines: [1, 2, 3, 4], fix: full }],
    ],
    [
      'the same call again, unran: nothing learned',
      () => {
        const s = madeUpSession();
        return [
          ...s.fail('Bash', { command: short }, "gpg: error in '[stdin]': invalid fingerprint"),
          ...s.fail('Bash', { command: short }, CYGPATH, 'error-flag'),
        ];
      },
      [],
    ],
    [
      'an unran call with no failure open: nothing',
      () => {
        const s = madeUpSession();
        return [...s.fail('Bash', { command: full }, CYGPATH, 'error-flag')];
      },
      [],
    ],
  ])('%s', (_name, events, expected) => {
    expect(found(events())).toEqual(expected);
  });
});
