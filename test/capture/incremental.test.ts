import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { READERS } from '../../src/capture/readers.js';
import { scanFile } from '../../src/capture/scan-file.js';
import type { FileState } from '../../src/capture/scan-file.js';
import { SEEN_KEYS, seenHash } from '../../src/capture/claude-code/parser.js';

const source = fileURLToPath(
  new URL(
    '../fixtures/transcripts/claude-code/current-2.1.330/10bfa583-1ab1-439a-973a-ad3d97e4fbed.jsonl',
    import.meta.url,
  ),
);
const lines = readFileSync(source, 'utf8')
  .split('\n')
  .filter((l) => l !== '');
let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function scan(path: string, previous: FileState | undefined) {
  return scanFile({
    reader: READERS['claude-code'],
    path,
    shown: path,
    previous,
    detector: { window: 40 },
    keep: (e) => e,
  });
}

describe('incremental scanning', () => {
  it('reads only appended bytes, waits for a partial last line, rescans a shrunk or replaced file', () => {
    dir = mkdtempSync(join(tmpdir(), 'lore-inc-'));
    const path = join(dir, 's.jsonl');
    writeFileSync(path, `${lines.slice(0, 30).join('\n')}\n`);
    const first = scan(path, undefined);
    expect(first.state.line).toBe(30);

    const unchanged = scan(path, first.state);
    expect(unchanged).toMatchObject({ changed: false, bytes: 0 });

    appendFileSync(path, `${lines[30]}\n${lines[31]?.slice(0, 20)}`);
    const partial = scan(path, first.state);
    expect(partial.state.line).toBe(31);
    expect(partial.bytes).toBe(Buffer.byteLength(`${lines[30]}\n${lines[31]?.slice(0, 20)}`));

    appendFileSync(path, `${lines[31]?.slice(20)}\n`);
    const completed = scan(path, partial.state);
    expect(completed.state.line).toBe(32);
    expect(completed.lines).toBe(1);

    writeFileSync(path, `${lines.slice(0, 5).join('\n')}\n`);
    const shrunk = scan(path, completed.state);
    expect(shrunk).toMatchObject({ restarted: true });
    expect(shrunk.state.line).toBe(5);

    const replaced = join(dir, 'r.jsonl');
    writeFileSync(replaced, `${lines.slice(0, 5).join('\n')}\n`);
    rmSync(path);
    writeFileSync(path, readFileSync(replaced));
    const reinode = scan(path, { ...shrunk.state, ino: shrunk.state.ino + 1 });
    expect(reinode).toMatchObject({ restarted: true });
  });

  it('reads a file rewritten in place (same inode, now longer than the offset) again from the start', () => {
    dir = mkdtempSync(join(tmpdir(), 'lore-inc-'));
    const path = join(dir, 's.jsonl');
    writeFileSync(path, `${lines.slice(0, 10).join('\n')}\n`);
    const first = scan(path, undefined);
    expect(first.state.line).toBe(10);
    // `cat other > s.jsonl`, a copy-truncate rotation: the same inode, other bytes before the offset
    writeFileSync(path, `${lines.slice(5, 40).join('\n')}\n`);
    const rewritten = scan(path, first.state);
    expect(rewritten).toMatchObject({ restarted: true, malformed: [] });
    expect(rewritten.state.line).toBe(35);
    expect(rewritten.lines).toBe(35);

    // an append keeps the bytes before the offset: only the new lines are read
    appendFileSync(path, `${lines[40]}\n`);
    const appended = scan(path, rewritten.state);
    expect(appended).toMatchObject({ restarted: false, lines: 1 });
    expect(appended.state.line).toBe(36);
  });

  it('finds an episode whose fix arrives in a later scan', () => {
    dir = mkdtempSync(join(tmpdir(), 'lore-inc-'));
    const path = join(dir, 's.jsonl');
    const at = (n: number) => ({ sessionId: 's', cwd: '/w', timestamp: `2026-01-01T00:00:0${n}Z` });
    const call = (id: string, command: string) =>
      JSON.stringify({
        ...at(1),
        type: 'assistant',
        message: { id: `m${id}`, content: [{ type: 'tool_use', id, name: 'Bash', input: { command } }] },
      });
    const result = (id: string, text: string, error: boolean) =>
      JSON.stringify({
        ...at(2),
        type: 'user',
        message: { content: [{ type: 'tool_result', tool_use_id: id, content: text, is_error: error }] },
      });
    writeFileSync(path, `${call('a', 'pytest tests')}\n${result('a', 'Exit code 1\nerror: hangs', true)}\n`);
    const first = scan(path, undefined);
    expect(first.episodes).toEqual([]);
    appendFileSync(
      path,
      `${call('b', 'CI=1 pytest -p no:cacheprovider tests')}\n${result('b', 'ok', false)}\n`,
    );
    const second = scan(path, first.state);
    expect(second.episodes.map((e) => [e.kind, e.evidence.map((r) => r.line)])).toEqual([
      ['error-fix', [1, 2, 3, 4]],
    ]);
  });

  // A resumed session copies whole lines: the parser emits each block once, remembering SEEN_KEYS
  // keys. Its carry once kept only 64 of them, so a copy 65..256 keys after its original was one
  // episode in a full scan and two across a scan boundary.
  it.each([
    [10, 0],
    [70, 0],
    [200, 0],
    [SEEN_KEYS - 6, 0],
    [SEEN_KEYS + 100, 1],
  ])(
    'a copy of an episode %i lines on: %i more episode(s), the same in one scan as across two',
    (filler, again) => {
      dir = mkdtempSync(join(tmpdir(), 'lore-inc-'));
      const path = join(dir, 's.jsonl');
      const base = { sessionId: 's', cwd: '/w', timestamp: '2026-01-01T00:00:01Z' };
      const call = (id: string, command: string) =>
        JSON.stringify({
          ...base,
          type: 'assistant',
          message: { id: `m${id}`, content: [{ type: 'tool_use', id, name: 'Bash', input: { command } }] },
        });
      const result = (id: string, text: string, error: boolean) =>
        JSON.stringify({
          ...base,
          type: 'user',
          message: { content: [{ type: 'tool_result', tool_use_id: id, content: text, is_error: error }] },
        });
      const episode = [
        call('a', 'pytest tests'),
        result('a', 'Exit code 1\nerror: hangs', true),
        call('b', 'CI=1 pytest -p no:cacheprovider tests'),
        result('b', 'ok', false),
      ];
      const notes = Array.from({ length: filler }, (_, n) =>
        JSON.stringify({ ...base, type: 'user', uuid: `u${n}`, message: { content: `note ${n}` } }),
      );
      const before = [...episode, ...notes];
      const lines = (episodes: { evidence: { line: number }[] }[]) =>
        episodes.map((e) => e.evidence.map((r) => r.line));

      writeFileSync(path, `${[...before, ...episode].join('\n')}\n`);
      const whole = scan(path, undefined).episodes;
      expect(whole).toHaveLength(1 + again);

      rmSync(path);
      writeFileSync(path, `${before.join('\n')}\n`);
      const first = scan(path, undefined);
      appendFileSync(path, `${episode.join('\n')}\n`);
      const second = scan(path, first.state);
      expect(lines([...first.episodes, ...second.episodes])).toEqual(lines(whole));
    },
  );
});

describe('the Claude Code parser carry', () => {
  const call = (id: string) =>
    JSON.stringify({
      sessionId: 's',
      cwd: '/w',
      type: 'assistant',
      message: { id: `m${id}`, content: [{ type: 'tool_use', id, name: 'Bash', input: { command: 'ls' } }] },
    });
  const parse = (carry: { seen?: string[] }) => {
    const parser = READERS['claude-code'].createParser({
      file: 'f',
      sidechain: false,
      project: undefined,
      carry,
    });
    const events = ['a', 'b'].flatMap((id, at) => parser.parse(JSON.parse(call(id)), at + 1));
    return {
      callIds: events.map((e) => ('callId' in e ? e.callId : undefined)),
      seen: parser.carry().seen ?? [],
    };
  };

  it('keeps its block keys hashed, and takes a carry of keys written before they were', () => {
    const fresh = parse({});
    expect(fresh.callIds).toEqual(['a', 'b']);
    expect(fresh.seen).toEqual([seenHash('c:a').toString(36), seenHash('c:b').toString(36)]);
    expect(fresh.seen.every((key) => !key.includes(':') && key.length <= 11)).toBe(true);
    // a carry of the keys themselves (an older lore's scan state) and one of hashes mean the same
    expect(parse({ seen: ['c:a'] }).callIds).toEqual(['b']);
    expect(parse({ seen: [seenHash('c:a').toString(36)] }).callIds).toEqual(['b']);
    expect(parse({ seen: ['c:a'] }).seen).toEqual(fresh.seen);
  });

  it('hashes distinct keys apart', () => {
    const keys = Array.from({ length: 100_000 }, (_, n) => `c:toolu_01${n.toString(36).padStart(22, '_')}`);
    expect(new Set(keys.map(seenHash)).size).toBe(keys.length);
  });
});
