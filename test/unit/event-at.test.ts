/**
 * `eventAt` (src/core/capture/events.ts), which the transcript readers build every event with in
 * place of `{ ...origin, kind, ... }`: the same object, keys in the same order.
 */
import { describe, expect, it } from 'vitest';
import { eventAt } from '../../src/core/capture/events.js';
import type { EventOrigin } from '../../src/core/capture/events.js';

const base: EventOrigin = {
  agent: 'claude-code',
  session: 's1',
  project: '/repo',
  timestamp: '2026-01-02T03:04:05.000Z',
  file: 'a.jsonl',
  line: 7,
};

const ORIGINS: [string, EventOrigin][] = [
  ['plain', base],
  ['in a subagent', { ...base, sidechain: true }],
  ['sidechain false', { ...base, sidechain: false }],
  ['no project, no time', { ...base, project: undefined, timestamp: undefined }],
  ['codex', { ...base, agent: 'codex', line: 1 }],
];

const OWN = [
  { kind: 'user-text', text: 'no, use pnpm' },
  { kind: 'tool-call', callId: 'c1', tool: 'Bash', input: { command: 'pytest -x' } },
  {
    kind: 'tool-result',
    callId: 'c1',
    tool: undefined,
    ok: false,
    text: 'boom',
    exitCode: 2,
    failure: 'exit-code',
  },
  { kind: 'interruption', callId: undefined },
  { kind: 'compaction' },
] as const;

describe('eventAt', () => {
  for (const [name, origin] of ORIGINS) {
    it.each(OWN.map((own) => [own.kind, own] as const))(`${name}: %s is { ...origin, ...own }`, (_, own) => {
      const event = eventAt(origin, own);
      const spread = { ...origin, ...own };
      expect(event).toStrictEqual(spread);
      expect(Object.keys(event)).toEqual(Object.keys(spread));
      expect(JSON.stringify(event)).toBe(JSON.stringify(spread));
    });
  }

  it('leaves its arguments alone and shares the values it is given', () => {
    const origin = { ...base, sidechain: true };
    const input = { command: 'ls' };
    const own = { kind: 'tool-call', callId: 'c', tool: 'Bash', input } as const;
    const event = eventAt(origin, own);
    expect(origin).toStrictEqual({ ...base, sidechain: true });
    expect(own).toStrictEqual({ kind: 'tool-call', callId: 'c', tool: 'Bash', input: { command: 'ls' } });
    expect(event.input).toBe(input);
    expect(event).not.toBe(origin);
  });
});
