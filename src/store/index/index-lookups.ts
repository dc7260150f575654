/** The index's direct reads: one lesson, refs, problems, counts. */
import type { Problem } from '../../core/errors.js';
import type { RefEntry } from '../../core/lesson/resolve-ref.js';
import type { Tier } from '../../core/lesson/schema.js';
import type { SqlDatabase } from '../sqlite/sqlite.js';
import type { IndexedLesson } from './index-types.js';
import { toIndexed } from './rank-row.js';
import type { LessonRow } from './rank-row.js';

export function getLesson(db: SqlDatabase, tier: Tier, id: string): IndexedLesson | undefined {
  const row = db.get<LessonRow>(
    `SELECT l.rowid AS rowid, l.record AS record, l.file AS file, v.times AS times, v.last AS last
     FROM lessons l LEFT JOIN votes v ON v.tier = l.tier AND v.id = l.id WHERE l.tier = ? AND l.id = ?`,
    tier,
    id,
  );
  return row ? toIndexed(row) : undefined;
}

/** Lessons an id prefix, a slug (or part of one) or an alias may mean. */
export function findRefs(db: SqlDatabase, ref: string): RefEntry[] {
  const wanted = ref.trim().toLowerCase();
  return db
    .all<Omit<RefEntry, 'aliases'> & { aliases: string | null }>(
      `SELECT id, slug, summary, tier, json_extract(record, '$.aliases') AS aliases FROM lessons
       WHERE substr(id, 1, length(?)) = ? OR slug = ? OR instr(slug, ?) > 0
         OR EXISTS (SELECT 1 FROM json_each(record, '$.aliases') WHERE lower(json_each.value) = ?)
       ORDER BY tier, id LIMIT 200`,
      wanted,
      wanted,
      wanted,
      wanted,
      wanted,
    )
    .map(({ aliases, ...entry }) =>
      aliases === null ? entry : { ...entry, aliases: JSON.parse(aliases) as string[] },
    );
}

export function listProblems(db: SqlDatabase): Problem[] {
  return db
    .all<{
      file: string;
      line: number | null;
      field: string | null;
      message: string;
      severity: 'error' | 'warning';
    }>('SELECT file, line, field, message, severity FROM problems ORDER BY file, line')
    .map((row) => ({
      file: row.file,
      ...(row.line === null ? {} : { line: row.line }),
      ...(row.field === null ? {} : { field: row.field }),
      message: row.message,
      severity: row.severity,
    }));
}

export function indexStats(db: SqlDatabase): {
  total: number;
  byStatus: Record<string, number>;
  indexedAt: string | null;
} {
  const byStatus: Record<string, number> = {};
  let total = 0;
  for (const row of db.all<{ status: string; n: number }>(
    'SELECT status, count(*) AS n FROM lessons GROUP BY status',
  )) {
    byStatus[row.status] = row.n;
    total += row.n;
  }
  const indexedAt =
    db.get<{ value: string }>("SELECT value FROM meta WHERE key = 'indexedAt'")?.value ?? null;
  return { total, byStatus, indexedAt };
}
