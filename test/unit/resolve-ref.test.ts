import { describe, expect, it } from 'vitest';
import { resolveRef } from '../../src/core/lesson/resolve-ref.js';
import type { RefEntry } from '../../src/core/lesson/resolve-ref.js';

const entry = (id: string, slug: string, tier = 'project'): RefEntry => ({
  id,
  slug,
  summary: `summary of ${slug}`,
  tier,
});

const PYTEST = entry('01abcdefgh', 'pytest-hangs');
const PUSH = entry('01abzzzzzz', 'no-force-push');
const NPM = entry('9xyzxyzxyz', 'npm-ci-not-install', 'user');
const ENTRIES = [PYTEST, PUSH, NPM];

describe('resolveRef', () => {
  it.each([
    { name: 'an exact id', ref: '01abcdefgh', want: PYTEST },
    { name: 'a unique prefix', ref: '9x', want: NPM },
    { name: 'a one-character unique prefix', ref: '9', want: NPM },
    { name: 'a longer unique prefix', ref: '01abc', want: PYTEST },
    { name: 'a slug', ref: 'no-force-push', want: PUSH },
    { name: 'an upper-case id', ref: '01ABCDEFGH', want: PYTEST },
    { name: 'an upper-case slug', ref: 'NPM-CI-NOT-INSTALL', want: NPM },
    { name: 'surrounding spaces', ref: '  01abz  ', want: PUSH },
  ])('finds $name', ({ ref, want }) => {
    expect(resolveRef(ref, ENTRIES)).toEqual({ ok: true, entry: want });
  });

  it.each([
    { name: 'an alias as written', ref: 'L-001' },
    { name: 'an alias in lower case', ref: 'l-001' },
  ])('finds a lesson by $name (an id it had in the tool it was imported from)', ({ ref }) => {
    const imported = { ...entry('7qqqqqqqqq', 'seed-data-dates'), aliases: ['L-001'] };
    expect(resolveRef(ref, [...ENTRIES, imported])).toEqual({ ok: true, entry: imported });
  });

  it('an alias two lessons share is ambiguous', () => {
    const a = { ...entry('7qqqqqqqqq', 'one'), aliases: ['L-001'] };
    const b = { ...entry('8qqqqqqqqq', 'two', 'user'), aliases: ['L-001'] };
    expect(resolveRef('L-001', [a, b])).toEqual({ ok: false, reason: 'ambiguous', candidates: [a, b] });
  });

  it('lists the candidates of an ambiguous prefix', () => {
    expect(resolveRef('01ab', ENTRIES)).toEqual({
      ok: false,
      reason: 'ambiguous',
      candidates: [PYTEST, PUSH],
    });
  });

  it('a slug equal to another lesson id prefix is ambiguous', () => {
    const odd = entry('zzzzzzzzzz', '01ab');
    expect(resolveRef('01ab', [...ENTRIES, odd])).toMatchObject({
      ok: false,
      reason: 'ambiguous',
      candidates: expect.arrayContaining([PYTEST, PUSH, odd]),
    });
  });

  it('the same id in two tiers is ambiguous', () => {
    const copy = { ...PYTEST, tier: 'user' };
    expect(resolveRef('01abcdefgh', [PYTEST, copy])).toEqual({
      ok: false,
      reason: 'ambiguous',
      candidates: [PYTEST, copy],
    });
  });

  it('lists at most ten candidates', () => {
    const many = Array.from({ length: 15 }, (_, i) => entry(`aa${String(i).padStart(8, '0')}`, `s-${i}`));
    const result = resolveRef('aa', many);
    expect(result).toMatchObject({ ok: false, reason: 'ambiguous' });
    expect((result as { candidates: RefEntry[] }).candidates).toEqual(many.slice(0, 10));
  });

  it.each([
    { name: 'part of a slug', ref: 'force', candidates: [PUSH] },
    { name: 'part of several slugs', ref: 'n', candidates: [PYTEST, PUSH, NPM] },
    { name: 'three characters inside an id', ref: 'xyz', candidates: [NPM] },
    { name: 'two characters inside an id are not enough', ref: 'yz', candidates: [] },
    { name: 'nothing like it', ref: 'kubernetes', candidates: [] },
  ])('reports not-found with near candidates for $name', ({ ref, candidates }) => {
    expect(resolveRef(ref, ENTRIES)).toEqual({ ok: false, reason: 'not-found', candidates });
  });

  it.each(['', '   ', '\t'])('refuses an empty ref %j', (ref) => {
    expect(resolveRef(ref, ENTRIES)).toEqual({ ok: false, reason: 'empty', candidates: [] });
  });

  it('finds nothing in an empty store', () => {
    expect(resolveRef('01ab', [])).toEqual({ ok: false, reason: 'not-found', candidates: [] });
  });
});
