/**
 * The one filter description (list-filter.ts): the SQL WHERE clause it gives and the predicate it
 * gives for rows held in memory keep exactly the same lessons, for any lessons and any filter.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { openIndexDatabase } from '../../src/store/index/index-schema.js';
import { filterPredicate, filterSql, MAX_FILTER_TAGS } from '../../src/store/index/list-filter.js';
import { LoreError } from '../../src/core/errors.js';
import type { FilterRow, ListFilter } from '../../src/store/index/list-filter.js';

const dir = mkdtempSync(join(tmpdir(), 'lore-filter-'));
const { db } = openIndexDatabase(join(dir, 'index.db'));
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

// Tags from a small alphabet, so that filters and lessons share values, `:` splits and suffixes
// (`python` against `lang:python`) come up often; `É` and an astral character test lower-casing
// and SQLite's character counts against JS's.
const tagPart = fc
  .array(fc.constantFrom('a', 'b', 'É', 'é', '𝒳'), { minLength: 1, maxLength: 3 })
  .map((chars) => chars.join(''));
const tag = fc.oneof(
  tagPart,
  fc.tuple(tagPart, tagPart).map(([a, b]) => `${a}:${b}`),
);
const confidence = fc.oneof(fc.constantFrom(0, 0.5, 1), fc.double({ min: 0, max: 1, noNaN: true }));

const lessonRow = fc.record({
  status: fc.constantFrom('active', 'archived', 'superseded'),
  tier: fc.constantFrom('project', 'user'),
  confidence,
  needsReview: fc.constantFrom(0, 1),
  tags: fc.uniqueArray(tag, { maxLength: 3 }).map((tags) => [...new Set(tags.map((t) => t.toLowerCase()))]),
});

const filter: fc.Arbitrary<ListFilter> = fc.record(
  {
    status: fc.constantFrom('active', 'archived', 'superseded', 'any' as const),
    tier: fc.constantFrom('project', 'user' as const),
    injectable: fc.record({ minConfidence: confidence }),
    tags: fc.array(tag, { maxLength: 2 }),
  },
  { requiredKeys: [] },
);

/** Replaces the index's lessons with `rows`; their rowids are their positions plus one. */
function store(rows: readonly FilterRow[]): void {
  db.transaction(() => {
    db.exec('DELETE FROM lessons; DELETE FROM lesson_tags;');
    for (const [i, row] of rows.entries()) {
      const rowid = i + 1;
      db.run(
        `INSERT INTO lessons(rowid, tier, id, slug, summary, status, priority, confidence, needs_review, updated_at, file, record)
         VALUES (?, ?, ?, 's', 's', ?, 5, ?, ?, '2026-01-01T00:00:00.000Z', ?, '{}')`,
        rowid,
        row.tier,
        `id${rowid}`,
        row.status,
        row.confidence,
        row.needsReview,
        `f${rowid}`,
      );
      for (const t of row.tags ?? []) db.run('INSERT INTO lesson_tags(lesson, tag) VALUES (?, ?)', rowid, t);
    }
  });
}

describe('list filter', () => {
  it('the SQL filter and the in-memory predicate keep the same lessons (property)', () => {
    fc.assert(
      fc.property(fc.array(lessonRow, { maxLength: 12 }), filter, (rows, wanted) => {
        store(rows);
        const params: (string | number)[] = [];
        const where = filterSql(wanted, params);
        const bySql = db
          .all<{ rowid: number }>(
            `SELECT l.rowid AS rowid FROM lessons l ${where === '' ? '' : `WHERE ${where}`} ORDER BY l.rowid`,
            ...params,
          )
          .map((row) => row.rowid);
        const keep = filterPredicate(wanted);
        const inMemory = rows.flatMap((row, i) => (keep(row) ? [i + 1] : []));
        expect(bySql).toEqual(inMemory);
      }),
      { numRuns: 300 },
    );
  });

  it.each([
    { wanted: {}, kept: ['active'] },
    { wanted: { status: 'any' as const }, kept: ['active', 'archived'] },
    { wanted: { tags: ['python'] }, kept: ['active'] },
    { wanted: { tags: ['LANG:python'] }, kept: ['active'] },
    { wanted: { tags: ['lang'] }, kept: [] },
    { wanted: { injectable: { minConfidence: 0.5 } }, kept: [] },
  ])('$wanted keeps $kept', ({ wanted, kept }) => {
    const rows: FilterRow[] = [
      { status: 'active', tier: 'project', confidence: 0.4, needsReview: 0, tags: ['lang:python'] },
      { status: 'archived', tier: 'user', confidence: 0.9, needsReview: 1, tags: [] },
    ];
    store(rows);
    const keep = filterPredicate(wanted);
    expect(rows.filter(keep).map((row) => row.status)).toEqual(kept);
    const params: (string | number)[] = [];
    const where = filterSql(wanted, params);
    const bySql = db.all<{ status: string }>(
      `SELECT status FROM lessons l ${where === '' ? '' : `WHERE ${where}`} ORDER BY rowid`,
      ...params,
    );
    expect(bySql.map((row) => row.status)).toEqual(kept);
  });
});

describe('a filter with many tags', () => {
  const tags = (n: number) => Array.from({ length: n }, (_, i) => `t${i}`);

  it('takes up to MAX_FILTER_TAGS distinct tags, in SQL as in memory', () => {
    store([
      { status: 'active', tier: 'project', confidence: 1, needsReview: 0, tags: tags(MAX_FILTER_TAGS) },
    ]);
    // repeats (any case) are one tag
    const wanted = { tags: [...tags(MAX_FILTER_TAGS), 'T0', 't1'] };
    const params: (string | number)[] = [];
    const bySql = db.all<{ status: string }>(
      `SELECT status FROM lessons l WHERE ${filterSql(wanted, params)}`,
      ...params,
    );
    expect(bySql).toHaveLength(1);
  });

  it('refuses more as a usage error, not a SQLite expression-depth failure', () => {
    const refused = (() => {
      try {
        filterSql({ tags: tags(MAX_FILTER_TAGS + 1) }, []);
        return undefined;
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(LoreError);
    expect(refused).toMatchObject({
      code: 'usage',
      message: expect.stringContaining(`at most ${MAX_FILTER_TAGS} tags`),
    });
  });
});
