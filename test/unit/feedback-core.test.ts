import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adjustConfidence, planUnusedDecay } from '../../src/core/feedback/adjust-confidence.js';
import { findFeedbackMarkers } from '../../src/core/feedback/feedback-markers.js';
import { renderTaskPrompt } from '../../src/core/prompt/render-task-prompt.js';
import { compareRankable } from '../../src/core/rank/rank-results.js';

const DAY = 86_400_000;

describe('findFeedbackMarkers', () => {
  it.each([
    ['LEARNING_HELPFUL: 7m2kq8xr4t', [{ ref: '7m2kq8xr4t', helpful: true }]],
    ['ok\nLEARNING_NOT_HELPFUL: `pytest-hangs`', [{ ref: 'pytest-hangs', helpful: false }]],
    ['LEARNING_HELPFUL:abc LEARNING_HELPFUL: ABC', [{ ref: 'abc', helpful: true }]],
    [
      'LEARNING_HELPFUL: a LEARNING_NOT_HELPFUL: a',
      [
        { ref: 'a', helpful: true },
        { ref: 'a', helpful: false },
      ],
    ],
    ['XLEARNING_HELPFUL: a', []],
    ['LEARNING_HELPFUL: ', []],
    ['no markers here', []],
  ])('%j', (text, expected) => {
    expect(findFeedbackMarkers(text)).toEqual(expected);
  });
});

describe('adjustConfidence', () => {
  it.each([
    [0.9, true, 0.95],
    [0.98, true, 1],
    [1, true, 1],
    [0.9, false, 0.8],
    [0.15, false, 0.1],
    [0.05, false, 0.05],
    [0.05, true, 0.1],
  ])('%d, helpful %s -> %d', (before, helpful, after) => {
    expect(adjustConfidence(before, helpful)).toBe(after);
  });

  it('never leaves [0, 1], never moves against the verdict', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), fc.array(fc.boolean()), (start, verdicts) => {
        let c = start;
        for (const helpful of verdicts) {
          const next = adjustConfidence(c, helpful);
          expect(helpful ? next >= c : next <= c).toBe(true);
          expect(next >= 0 && next <= 1).toBe(true);
          c = next;
        }
      }),
    );
  });
});

describe('planUnusedDecay', () => {
  const now = Date.parse('2026-11-23T00:00:00Z');
  it.each([
    [0.9, 29, undefined],
    [0.9, 30, 0.88],
    [0.9, 95, 0.84],
    [0.12, 300, 0.1],
    [0.05, 300, 0.05],
  ])('confidence %d unused %d days -> %s', (confidence, days, after) => {
    expect(planUnusedDecay(confidence, now - days * DAY, now)?.confidence).toBe(after);
  });

  it('moves the reference forward by the whole periods applied', () => {
    const plan = planUnusedDecay(0.9, now - 95 * DAY, now);
    expect(plan?.periods).toBe(3);
    expect(plan?.decayedThrough).toBe(new Date(now - 5 * DAY).toISOString());
  });
});

describe('compareRankable', () => {
  it('orders by confidence after priority, before recency', () => {
    const base = { relevance: 0, voteScore: 0, priority: 5, updatedAt: '2026-01-01T00:00:00Z' };
    const sure = { ...base, id: 'b', confidence: 0.9, updatedAt: '2025-01-01T00:00:00Z' };
    const unsure = { ...base, id: 'a', confidence: 0.5 };
    expect([unsure, sure].sort(compareRankable).map((r) => r.id)).toEqual(['b', 'a']);
  });
});

describe('renderTaskPrompt', () => {
  const lesson = {
    id: '7m2kq8xr4t',
    summary: 'never edit an applied migration',
    type: 'guard',
    category: 'process',
    priority: 8,
    confidence: 0.9,
    matched_by: ['path:db/migrations/**'],
  };
  it('renders nothing for no lessons, in every text format; JSON says so', () => {
    expect(renderTaskPrompt([], 'system-reminder')).toBe('');
    expect(renderTaskPrompt([], 'markdown')).toBe('');
    expect(renderTaskPrompt([], 'coia')).toBe('');
    expect(JSON.parse(renderTaskPrompt([], 'json'))).toMatchObject({ lessons: [] });
  });
  it.each([
    [
      'system-reminder',
      '<system-reminder>',
      '- [7m2kq8xr4t] GUARD: never edit an applied migration (path:db/migrations/**)',
    ],
    ['markdown', '## Lessons for this task', '- **7m2kq8xr4t** GUARD: never edit an applied migration'],
    ['json', '"id": "7m2kq8xr4t"', '"pull":'],
  ] as const)('%s', (format, head, line) => {
    const text = renderTaskPrompt([lesson], format);
    expect(text).toContain(head);
    expect(text).toContain(line);
    expect(text).toContain('lore show <id>');
  });
});
