// A Gemini CLI chat log gains a `$rewindTo` (the user rewound the conversation) after a scan read
// the messages it takes back. One scan of the whole file never reads them; an incremental scan
// must not pair a fix written after the rewind with a failure it took back either.
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { READERS } from '../../src/capture/readers.js';
import { scanFile } from '../../src/capture/scan-file.js';
import type { FileState } from '../../src/capture/scan-file.js';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function scan(path: string, previous: FileState | undefined) {
  return scanFile({
    reader: READERS.gemini,
    path,
    shown: path,
    previous,
    detector: { window: 40 },
    keep: (e) => e,
  });
}

const at = '2026-11-22T05:58:22.000Z';
const user = (id: string, text: string) =>
  JSON.stringify({ id, timestamp: at, type: 'user', content: [{ text }] });
const shell = (id: string, command: string, status: 'error' | 'success', output: string) =>
  JSON.stringify({
    id,
    timestamp: at,
    type: 'gemini',
    content: '',
    toolCalls: [
      {
        id: `call-${id}`,
        name: 'run_shell_command',
        args: { command },
        result: [{ functionResponse: { id: `call-${id}`, name: 'run_shell_command', response: { output } } }],
        status,
        timestamp: at,
      },
    ],
  });

const before = [
  JSON.stringify({ sessionId: 's-1', projectHash: 'p', startTime: at, lastUpdated: at, kind: 'main' }),
  user('u1', 'run the tests'),
  shell('g1', 'pytest tests', 'error', 'Exit Code: 1\nerror: pytest hangs waiting for a TTY'),
];
const after = (target: string) => [
  JSON.stringify({ $rewindTo: target }),
  user('u2', 'run the tests again'),
  shell('g2', 'CI=1 pytest -p no:cacheprovider tests', 'success', 'Output: 5 passed'),
];

const linesOf = (episodes: { evidence: { line: number }[] }[]) =>
  episodes.map((episode) => episode.evidence.map((ref) => ref.line));

describe('Gemini $rewindTo across a scan boundary', () => {
  it.each([
    ['the failed call', 'g1', 0],
    ['the prompt before it', 'u1', 0],
    ['an id this chat never had (ignored)', 'nowhere', 1],
  ])('a rewind to %s: the same episodes in one scan as across two', (_name, target, expected) => {
    dir = mkdtempSync(join(tmpdir(), 'lore-rewind-'));
    const path = join(dir, 'session-2026-11-22T05-58-s1.jsonl');
    writeFileSync(path, `${[...before, ...after(target)].join('\n')}\n`);
    const whole = scan(path, undefined).episodes;
    expect(whole).toHaveLength(expected);

    rmSync(path);
    writeFileSync(path, `${before.join('\n')}\n`);
    const first = scan(path, undefined);
    expect(first.episodes).toEqual([]);
    appendFileSync(path, `${after(target).join('\n')}\n`);
    const second = scan(path, first.state);
    expect(linesOf([...first.episodes, ...second.episodes])).toEqual(linesOf(whole));
  });

  it('a rewind also takes back the messages of its own chunk written after the target', () => {
    dir = mkdtempSync(join(tmpdir(), 'lore-rewind-'));
    const path = join(dir, 'session-2026-11-22T05-58-s1.jsonl');
    writeFileSync(path, `${before.slice(0, 2).join('\n')}\n`);
    const first = scan(path, undefined);
    // the failure is written after the scan, then taken back by a rewind to the prompt before it
    appendFileSync(path, `${[before[2], ...after('u1')].join('\n')}\n`);
    const second = scan(path, first.state);
    expect(second.episodes).toEqual([]);
    expect(second.events).toBe(3);
  });
});
