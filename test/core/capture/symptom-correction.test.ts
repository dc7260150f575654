import { describe, expect, it } from 'vitest';
import { isCorrection, reportsSymptom } from '../../../src/core/capture/detect-episodes.js';
import type { TranscriptEvent } from '../../../src/core/capture/events.js';
import { detectAll, madeUpSession } from '../../helpers/capture-events.js';

function found(events: TranscriptEvent[]) {
  const episodes = detectAll(events);
  return episodes.map((e) => ({ kind: e.kind, lines: e.evidence.map((ref) => ref.line) }));
}

describe('a symptom of what the agent made', () => {
  it.each<[string, boolean]>([
    ['why does the exported markdown doc not show any text when opened in Cosmic Text?', true],
    ["the shortcut doesn't open anything", true],
    ['the panel applet is not showing after the restart', true],
    ['now the boot manager wont load', true],
    ['why is the service not starting?', true],
    ['why does python not have a switch statement?', false],
    ['show me the log', false],
    ['it opens fine now, thanks', false],
    ['add a spinner shown while the page is not loading', false],
  ])('%s -> %s', (text, expected) => {
    expect(reportsSymptom(text)).toBe(expected);
    expect(isCorrection(text) || !expected).toBe(true);
  });
});

describe('a symptom reported after a refused call', () => {
  it.each<[string, () => TranscriptEvent[], ReturnType<typeof found>]>([
    [
      'pinned on the newest call that did something, past the refusal and the lookups',
      () => {
        const s = madeUpSession();
        const refused = s.call('Bash', { command: 'pacman -Ss glow' });
        return [
          ...s.ok('Write', { file_path: '/home/me/export.md', content: '# x' }),
          ...s.ok('Bash', { command: 'which glow' }),
          refused,
          s.rejection(refused),
          s.user('why does the exported doc not show any text when opened?'),
        ];
      },
      [{ kind: 'user-correction', lines: [2, 7] }],
    ],
    [
      'any other words after a refusal stay pinned on no call',
      () => {
        const s = madeUpSession();
        const refused = s.call('Bash', { command: 'pacman -Ss glow' });
        return [
          ...s.ok('Write', { file_path: '/home/me/export.md', content: '# x' }),
          refused,
          s.rejection(refused),
          s.user('no, use the browser instead'),
        ];
      },
      [{ kind: 'user-correction', lines: [5] }],
    ],
  ])('%s', (_name, events, expected) => {
    expect(found(events())).toEqual(expected);
  });
});
