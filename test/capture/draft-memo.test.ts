// Drafting each content once (src/core/capture/draft-memo.ts): for every episode the real
// fixtures hold, and for a copy of it read elsewhere (another session, file and line, as a resumed
// session repeats its history), the memo's draft is exactly what drafting it afresh gives.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { scanTranscripts } from '../../src/capture/scan-transcripts.js';
import { draftCandidate } from '../../src/core/capture/draft-candidate.js';
import { createDraftMemo, draftKey } from '../../src/core/capture/draft-memo.js';
import type { Episode } from '../../src/core/capture/episode.js';
import type { EventOrigin } from '../../src/core/capture/events.js';
import { redactDeep } from '../../src/core/capture/redact.js';

const fixtures = fileURLToPath(new URL('../fixtures/transcripts/', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'lore-draft-memo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// a name that occurs in the fixtures' paths, so that redaction has places to change
const names = ['Mischa'];
const redact = <T>(value: T): T => redactDeep(value, { names });
const fresh = (episode: Episode) => draftCandidate(redact(episode));

const episodes: Episode[] = scanTranscripts({
  roots: [{ path: fixtures, shownAs: '/home/Mischa/fixtures' }],
  statePath: join(dir, 'state.json'),
  detector: { window: 40 },
  redact: { names: [] },
  threads: 'never',
}).episodes;

/** The episode as read from another copy: every place moved, the content untouched. */
function movedCopy(episode: Episode, n: number): Episode {
  const move = <T extends EventOrigin | undefined>(event: T): T =>
    event === undefined
      ? event
      : {
          ...event,
          session: `copy-${n}`,
          file: `/home/Mischa/copy-${n}/${event.file}`,
          line: event.line + n,
        };
  const moved = structuredClone(episode);
  return {
    ...moved,
    session: `copy-${n}`,
    evidence: moved.evidence.map((ref) => ({
      file: `/home/Mischa/copy-${n}/${ref.file}`,
      line: ref.line + n,
    })),
    failures: moved.failures.map((attempt) => ({ call: move(attempt.call), result: move(attempt.result) })),
    fix: move(moved.fix),
    enabler: move(moved.enabler),
    ...(moved.joined
      ? {
          joined: {
            heuristic: movedCopy(moved.joined.heuristic, n),
            blockRef: {
              file: `/home/Mischa/copy-${n}/${moved.joined.blockRef.file}`,
              line: moved.joined.blockRef.line + n,
            },
          },
        }
      : {}),
  };
}

describe('createDraftMemo', () => {
  it('drafts every fixture episode, and every moved copy of it, exactly as drafting afresh does', () => {
    expect(episodes.length).toBeGreaterThan(100);
    expect(episodes.some((episode) => episode.joined !== undefined)).toBe(true);
    const memo = createDraftMemo(draftCandidate, redact);
    for (const episode of episodes) expect(memo.draft(episode)).toEqual(fresh(episode));
    const before = memo.hits();
    for (const [n, episode] of episodes.entries()) {
      const copy = movedCopy(episode, n + 1);
      const drafted = memo.draft(copy);
      expect(drafted).toEqual(fresh(copy));
      expect(drafted.session).toBe(`copy-${n + 1}`);
    }
    // the copies came from the kept drafts (all but those pushed out of a full memo)
    expect(memo.hits() - before).toBeGreaterThan(episodes.length / 2);
  });

  it('keys by everything a draft reads: a different input, even one named `file`, is a different key', () => {
    const episode = episodes.find((e) => e.failures.length > 0) as Episode;
    const attempt = episode.failures[0] as Episode['failures'][number];
    const changed = (input: Record<string, unknown>): Episode => ({
      ...episode,
      failures: [{ ...attempt, call: { ...attempt.call, input } }, ...episode.failures.slice(1)],
    });
    const a = changed({ ...attempt.call.input, file: 'a.txt', line: 1 });
    const b = changed({ ...attempt.call.input, file: 'b.txt', line: 1 });
    expect(draftKey(a)).not.toBe(draftKey(b));
    expect(draftKey(movedCopy(a, 3))).toBe(draftKey(a));
    const timed = { ...episode, timestamp: '2030-01-01T00:00:00.000Z' };
    expect(draftKey(timed)).not.toBe(draftKey(episode));
  });

  it('gives each caller its own draft: changing one changes no other', () => {
    const memo = createDraftMemo(draftCandidate, redact);
    const episode = episodes[0] as Episode;
    const first = memo.draft(episode);
    first.tags.push('mutated');
    first.evidence.push({ file: 'x', line: 1 });
    const again = memo.draft(movedCopy(episode, 1));
    expect(again.tags).not.toContain('mutated');
    again.tools.push('mutated');
    expect(memo.draft(movedCopy(episode, 2))).toEqual(fresh(movedCopy(episode, 2)));
  });
});
