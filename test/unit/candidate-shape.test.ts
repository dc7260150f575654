import { describe, expect, it } from 'vitest';
import { candidateShapeProblem } from '../../src/core/capture/candidate-shape.js';

const good = {
  id: 'abc',
  summary: 'Run `pytest -p no:cacheprovider` here',
  confidence: 0.7,
  priority: 5,
  needsReview: false,
  occurrences: 2,
  sourceSessions: ['s1'],
  contentHash: 'h',
  tags: ['lang:python'],
  capture: {
    kind: 'error-fix',
    tier: 1,
    agents: ['claude-code'],
    trigger: 'pytest',
    signals: {},
    projects: ['/p'],
    anchors: ['f:1'],
    evidence: [{ kind: 'file', ref: 'f:1' }],
    firstSeen: '2026-01-01T00:00:00Z',
    lastSeen: '2026-01-01T00:00:00Z',
  },
};

describe('candidateShapeProblem', () => {
  it('accepts the shape lore writes', () => {
    expect(candidateShapeProblem(good)).toBeUndefined();
  });

  it.each<[string, unknown, string]>([
    ['not a mapping', 'text', 'not a mapping of fields'],
    ['null', null, 'not a mapping of fields'],
    ['summary a number', { ...good, summary: 42 }, 'summary must be a text'],
    ['summary blank', { ...good, summary: '  ' }, 'summary must be a text'],
    ['confidence text', { ...good, confidence: 'high' }, 'confidence must be a number'],
    ['needsReview text', { ...good, needsReview: 'yes' }, 'needsReview must be true or false'],
    ['sessions not texts', { ...good, sourceSessions: [1] }, 'sourceSessions must be a list of texts'],
    ['mistake a list', { ...good, mistake: ['x'] }, 'mistake must be a text'],
    ['commands a text', { ...good, commands: 'pytest' }, 'commands must be a list of texts'],
    ['capture missing', { ...good, capture: undefined }, 'capture must be a mapping'],
    ['capture tier 3', { ...good, capture: { ...good.capture, tier: 3 } }, 'capture.tier must be 1 or 2'],
    [
      'evidence texts',
      { ...good, capture: { ...good.capture, evidence: ['f:1'] } },
      'capture.evidence must be a list of mappings',
    ],
    [
      'hashes a text',
      { ...good, capture: { ...good.capture, hashes: 'h' } },
      'capture.hashes must be a list of texts',
    ],
  ])('%s', (_name, record, problem) => {
    expect(candidateShapeProblem(record)).toBe(problem);
  });
});
