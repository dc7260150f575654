// Dedup state in the temp directory: a lesson is never repeated in one session, whichever agent.
import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  hookStateDir,
  openSessionState,
  sessionFile,
  wipeSession,
} from '../../src/store/hook-state/session-state.js';

const base = mkdtempSync(join(tmpdir(), 'lore-state-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('session state', () => {
  it('never repeats a lesson within a session, across agents and processes-worth of reopenings', () => {
    let run = 0;
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            agent: fc.constantFrom('main', 'agent-x', 'agent-y'),
            ids: fc.array(fc.constantFrom('a1', 'b2', 'c3', 'd4', 'e5'), { maxLength: 4 }),
          }),
          { maxLength: 8 },
        ),
        (calls) => {
          run += 1;
          const session = `s${run}`;
          const shown: string[] = [];
          for (const { agent, ids } of calls) {
            const state = openSessionState(base, session, agent, 0);
            for (const id of ids) if (state.claim(id, 5)) shown.push(id);
          }
          expect(new Set(shown).size).toBe(shown.length);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a line a killed writer left without its newline does not swallow the next claim', () => {
    const session = 'torn-line';
    const first = openSessionState(base, session, 'main', 0);
    expect(first.claim('a1', 5)).toBe(true);
    const file = sessionFile(base, session, 0);
    writeFileSync(file, `${readFileSync(file, 'utf8')}\nb2 5 ma`); // cut mid-line
    expect(openSessionState(base, session, 'agent-x', 0).claim('c3', 5)).toBe(true);
    const again = openSessionState(base, session, 'main', 0);
    expect(again.claim('c3', 5)).toBe(false); // claimed once: never shown twice
    expect(again.claim('a1', 5)).toBe(false);
    expect(again.seenElsewhere.has('c3')).toBe(true);
  });

  it('hooks that opened the state together and claim at once: each lesson goes to exactly one', () => {
    let run = 0;
    fc.assert(
      fc.property(
        fc.array(fc.subarray(['a1', 'b2', 'c3', 'd4', 'e5', '../x']), { minLength: 1, maxLength: 5 }),
        (wants) => {
          run += 1;
          // all opened before any claims: none of them knows what the others will take
          const states = wants.map((_, i) =>
            openSessionState(base, `p${run}`, i % 2 === 0 ? 'main' : 'sub', 0),
          );
          const got = wants.map((ids, i) => [...states[i]!.claimAll(ids.map((id) => ({ id, priority: 5 })))]);
          const all = got.flat();
          expect(new Set(all).size).toBe(all.length);
          expect(new Set(all)).toEqual(new Set(wants.flat().filter((id) => id !== '../x')));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('claims are session-wide; each agent sees what it was shown and what went elsewhere', () => {
    const main = openSessionState(base, 'sa', 'main', 0);
    expect([main.claim('a1', 9), main.claim('a1', 9)]).toEqual([true, false]);
    const sub = openSessionState(base, 'sa', 'sub-1', 0);
    expect([sub.claim('a1', 9), sub.claim('c3', 2)]).toEqual([false, true]);
    const [mainAgain, subAgain] = [
      openSessionState(base, 'sa', 'main', 0),
      openSessionState(base, 'sa', 'sub-1', 0),
    ];
    expect([
      [...mainAgain.seen],
      [...mainAgain.seenElsewhere],
      [...subAgain.seen],
      [...subAgain.seenElsewhere],
    ]).toEqual([['a1'], ['c3'], ['c3'], ['a1']]);
  });

  it('forget and wipe let lessons come back', () => {
    const main = openSessionState(base, 'sx', 'main', 0);
    expect([main.claim('a1', 9), main.claim('b2', 3), main.claim('a1', 9)]).toEqual([true, true, false]);
    expect(openSessionState(base, 'sx', 'sub-1', 0).claim('a1', 9)).toBe(false);
    main.forget(['a1']);
    const reopened = openSessionState(base, 'sx', 'main', 0);
    expect([...reopened.seen]).toEqual(['b2']);
    expect(reopened.claim('a1', 9)).toBe(true);
    wipeSession(base, 'sx', 0);
    expect(openSessionState(base, 'sx', 'main', 0).seen.size).toBe(0);
  });

  it('an unusable directory makes the state unavailable instead of throwing', () => {
    const state = openSessionState('/dev/null/nope', 'sy', 'main', 0);
    expect([state.available, state.claim('a1', 1)]).toEqual([false, false]);
  });
});

// The state lives in a shared temporary folder: nothing planted there may hang the hook or
// redirect its appends into another file.
describe.skipIf(process.platform === 'win32')('session state in a shared temporary folder', () => {
  const uid = process.getuid?.() ?? 0;
  const tmpOf = (name: string) => {
    const tmp = join(base, name);
    mkdirSync(hookStateDir(tmp, uid), { recursive: true, mode: 0o700 });
    return tmp;
  };

  it('a folder others can write to is not used: no dedup rather than planted claims', () => {
    const tmp = tmpOf('shared');
    chmodSync(hookStateDir(tmp, uid), 0o777);
    const state = openSessionState(tmp, 'open-folder', 'main', uid);
    expect([state.available, state.claim('a1', 5)]).toEqual([false, false]);
  });

  // only root can give a folder to another user
  it.skipIf(uid !== 0)('a folder of another user is not used', () => {
    const tmp = tmpOf('theirs');
    chownSync(hookStateDir(tmp, uid), 1, 1);
    const state = openSessionState(tmp, 'their-folder', 'main', uid);
    expect([state.available, state.claim('a1', 5)]).toEqual([false, false]);
  });

  it('a link planted under the claims file name is not followed', () => {
    const tmp = tmpOf('linked');
    const victim = join(base, 'victim.txt');
    writeFileSync(victim, 'original\n');
    symlinkSync(victim, sessionFile(tmp, 'linked-session', uid));
    const state = openSessionState(tmp, 'linked-session', 'main', uid);
    expect(state.claim('a1', 5)).toBe(false);
    expect(readFileSync(victim, 'utf8')).toBe('original\n');
  });

  it('a FIFO or an oversized file as the claims file: unavailable, never read', () => {
    const tmp = tmpOf('odd');
    execFileSync('mkfifo', [sessionFile(tmp, 'fifo-session', uid)]);
    expect(openSessionState(tmp, 'fifo-session', 'main', uid).available).toBe(false);
    writeFileSync(sessionFile(tmp, 'huge-session', uid), 'x'.repeat(2 << 20));
    expect(openSessionState(tmp, 'huge-session', 'main', uid).available).toBe(false);
  });
});
