import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dedupeVotes, parseVotes, summarizeVotes, voteKey, voteScore } from '../../src/core/rank/votes.js';
import type { Vote } from '../../src/core/rank/votes.js';

const FILE = '.lore/lessons/01abcdefgh/votes.jsonl';
const DAY_MS = 86_400_000;
const NOW = Date.parse('2025-01-01T00:00:00.000Z');

const line = (vote: Vote): string => JSON.stringify(vote);
const v = (model: string, task: string, at: string): Vote => ({ model, task, at });
const daysAgo = (days: number): string => new Date(NOW - days * DAY_MS).toISOString();

describe('parseVotes', () => {
  it('reads one vote per line', () => {
    const text = `${line(v('m', 't1', '2024-01-01T00:00:00Z'))}\n${line(v('m', 't2', '2024-01-02T00:00:00Z'))}\n`;
    expect(parseVotes(text, FILE)).toEqual({
      votes: [v('m', 't1', '2024-01-01T00:00:00Z'), v('m', 't2', '2024-01-02T00:00:00Z')],
      problems: [],
    });
  });

  it.each([
    { name: 'not JSON', bad: 'not json' },
    { name: 'a torn line', bad: '{"model":"m","task":"t' },
    { name: 'a JSON array', bad: '["m","t","2024-01-01T00:00:00Z"]' },
    { name: 'null', bad: 'null' },
    { name: 'a number', bad: '42' },
    { name: 'no model', bad: '{"task":"t","at":"2024-01-01T00:00:00Z"}' },
    { name: 'an empty task', bad: '{"model":"m","task":"","at":"2024-01-01T00:00:00Z"}' },
    { name: 'a numeric task', bad: '{"model":"m","task":7,"at":"2024-01-01T00:00:00Z"}' },
    { name: 'a bad date', bad: '{"model":"m","task":"t","at":"yesterday"}' },
    { name: 'no date', bad: '{"model":"m","task":"t"}' },
  ])('skips $name with a warning naming its 1-based line', ({ bad }) => {
    const good1 = line(v('m', 'a', '2024-01-01T00:00:00Z'));
    const good2 = line(v('m', 'b', '2024-01-03T00:00:00Z'));
    const result = parseVotes(`${good1}\n\n${bad}\n${good2}\n`, FILE);
    expect(result.votes.map((vote) => vote.task)).toEqual(['a', 'b']);
    expect(result.problems).toEqual([
      { file: FILE, line: 3, message: expect.stringContaining('malformed') as string, severity: 'warning' },
    ]);
  });

  it('ignores blank lines and a missing final newline', () => {
    const text = `\n  \n${line(v('m', 'a', '2024-01-01T00:00:00Z'))}`;
    expect(parseVotes(text, FILE)).toEqual({ votes: [v('m', 'a', '2024-01-01T00:00:00Z')], problems: [] });
  });

  it('reads an empty file as no votes', () => {
    expect(parseVotes('', FILE)).toEqual({ votes: [], problems: [] });
  });

  it('keeps the earliest vote of each (model, task)', () => {
    const text = [
      v('m', 't', '2024-03-01T00:00:00Z'),
      v('m', 't', '2024-01-01T00:00:00Z'),
      v('m', 't', '2024-02-01T00:00:00Z'),
      v('other', 't', '2024-04-01T00:00:00Z'),
    ]
      .map(line)
      .join('\n');
    expect(parseVotes(text, FILE).votes).toEqual([
      v('m', 't', '2024-01-01T00:00:00Z'),
      v('other', 't', '2024-04-01T00:00:00Z'),
    ]);
  });

  it('drops extra fields of a vote', () => {
    const text = '{"model":"m","task":"t","at":"2024-01-01T00:00:00Z","extra":1}';
    expect(parseVotes(text, FILE).votes).toEqual([v('m', 't', '2024-01-01T00:00:00Z')]);
  });
});

describe('dedupeVotes', () => {
  it('keeps the first of equal-time duplicates and sorts by time then key', () => {
    const first = v('m', 't', '2024-01-01T00:00:00Z');
    const same = { ...v('m', 't', '2024-01-01T00:00:00.000Z') };
    expect(dedupeVotes([v('z', 'a', '2024-01-01T00:00:00Z'), first, same])).toEqual([
      first,
      v('z', 'a', '2024-01-01T00:00:00Z'),
    ]);
  });

  it('a model and a task that share a separator do not collide', () => {
    expect(voteKey({ model: 'a', task: 'b:c' })).not.toBe(voteKey({ model: 'a:b', task: 'c' }));
  });

  it('never repeats a (model, task) and keeps each one at its earliest time (property)', () => {
    const arbVote = fc.record({
      model: fc.constantFrom('m1', 'm2'),
      task: fc.constantFrom('t1', 't2', 't3'),
      at: fc
        .integer({ min: 0, max: 10 * DAY_MS })
        .map((ms) => new Date(Date.parse('2024-01-01T00:00:00Z') + ms).toISOString()),
    });
    fc.assert(
      fc.property(fc.array(arbVote), (votes) => {
        const unique = dedupeVotes(votes);
        expect(new Set(unique.map(voteKey)).size).toBe(unique.length);
        expect(new Set(unique.map(voteKey))).toEqual(new Set(votes.map(voteKey)));
        for (const kept of unique) {
          const times = votes.filter((x) => voteKey(x) === voteKey(kept)).map((x) => Date.parse(x.at));
          expect(Date.parse(kept.at)).toBe(Math.min(...times));
        }
      }),
    );
  });
});

describe('voteScore', () => {
  it.each([
    { name: 'a vote made now', times: [daysAgo(0)], halfLife: 180, score: 1 },
    { name: 'a vote one half-life old', times: [daysAgo(180)], halfLife: 180, score: 0.5 },
    { name: 'a vote two half-lives old', times: [daysAgo(360)], halfLife: 180, score: 0.25 },
    { name: 'a vote 30 days old, half-life 30', times: [daysAgo(30)], halfLife: 30, score: 0.5 },
    {
      name: 'two votes, one and two half-lives old',
      times: [daysAgo(10), daysAgo(20)],
      halfLife: 10,
      score: 0.75,
    },
    {
      name: 'no decay with half-life 0',
      times: [daysAgo(1000), daysAgo(0), daysAgo(5)],
      halfLife: 0,
      score: 3,
    },
    { name: 'a future vote', times: [daysAgo(-50)], halfLife: 10, score: 1 },
    { name: 'no votes', times: [], halfLife: 180, score: 0 },
  ])('$name -> $score', ({ times, halfLife, score }) => {
    expect(voteScore(times, NOW, halfLife)).toBeCloseTo(score, 12);
  });

  it('never exceeds the number of votes and never goes below 0 (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -1000, max: 5000 }).map(daysAgo), { maxLength: 20 }),
        fc.double({ min: 0, max: 1000, noNaN: true }),
        (times, halfLife) => {
          const score = voteScore(times, NOW, halfLife);
          expect(score).toBeGreaterThanOrEqual(0);
          expect(score).toBeLessThanOrEqual(times.length + 1e-9);
        },
      ),
    );
  });

  it('an older vote never weighs more than a newer one (property)', () => {
    fc.assert(
      fc.property(fc.nat(5000), fc.nat(5000), fc.integer({ min: 1, max: 1000 }), (a, b, halfLife) => {
        const newer = Math.min(a, b);
        const older = Math.max(a, b);
        expect(voteScore([daysAgo(older)], NOW, halfLife)).toBeLessThanOrEqual(
          voteScore([daysAgo(newer)], NOW, halfLife),
        );
      }),
    );
  });
});

describe('summarizeVotes', () => {
  it('counts unique votes and reports the latest time', () => {
    const votes = [
      v('m', 't1', daysAgo(10)),
      v('m', 't1', daysAgo(20)),
      v('m', 't2', daysAgo(10)),
      v('other', 't1', daysAgo(5)),
    ];
    const summary = summarizeVotes(votes, NOW, 10);
    expect(summary.count).toBe(3);
    expect(summary.lastVotedAt).toBe(daysAgo(5));
    expect(summary.score).toBeCloseTo(0.25 + 0.5 + Math.SQRT1_2, 12);
  });

  it('reports nothing for no votes', () => {
    expect(summarizeVotes([], NOW, 180)).toEqual({ count: 0, lastVotedAt: null, score: 0 });
  });

  it('the last vote time compares instants, not strings', () => {
    const votes = [v('m', 'a', '2024-01-01T12:00:00+02:00'), v('m', 'b', '2024-01-01T11:00:00Z')];
    expect(summarizeVotes(votes, NOW, 0)).toEqual({
      count: 2,
      lastVotedAt: '2024-01-01T11:00:00Z',
      score: 2,
    });
  });
});
