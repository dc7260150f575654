/**
 * GET /api/lessons over more lessons than one page: with `q`, `total` counts every match (not
 * just the page asked for) and filters such as minConfidence pick from all of them; a lesson file
 * broken on disk while the server runs is named in `problems`, not silently left out.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAppSandbox } from '../helpers/http.js';

type ListBody = {
  items: { id: string; confidence: number }[];
  total: number;
  problems: { file: string; line?: number; message: string; severity: string }[];
};

describe('GET /api/lessons, paged', () => {
  it('counts every match of a search in total, and pages through them with offset', async () => {
    const sandbox = createAppSandbox();
    const ids = [];
    for (const n of [1, 2, 3])
      ids.push(await sandbox.add({ summary: `pytest lesson ${n}`, commands: [`pytest${n}\\b`] }));
    const pages = [];
    for (const offset of [0, 1, 2]) {
      const page = (
        await sandbox.app.request(`/api/lessons?q=pytest&limit=1&offset=${offset}`)
      ).json<ListBody>();
      expect(page.total).toBe(3);
      pages.push(...page.items.map((item) => item.id));
    }
    expect(pages.sort()).toEqual(ids.sort());
  });

  // The page is ranked alone and the total counted in SQLite: the pages, read one after the other,
  // are the full ranking, and total is every match the status and tag filters keep.
  it('pages of a search are the full ranking cut in order, with an exact total under filters', async () => {
    const sandbox = createAppSandbox();
    for (let n = 0; n < 12; n += 1) {
      await sandbox.add({
        summary: `${n % 3 === 0 ? 'pytest pytest' : 'pytest'} lesson ${n}`,
        tags: n % 2 === 0 ? ['even'] : ['odd'],
        priority: 1 + (n % 5),
      });
    }
    await sandbox.add({ summary: 'cargo build lesson' });
    const full = (
      await sandbox.app.request('/api/lessons?q=pytest&limit=1000&minConfidence=0')
    ).json<ListBody>();
    expect(full.total).toBe(12);
    const paged: string[] = [];
    for (const offset of [0, 5, 10]) {
      const page = (
        await sandbox.app.request(`/api/lessons?q=pytest&limit=5&offset=${offset}`)
      ).json<ListBody>();
      expect(page.total).toBe(12);
      paged.push(...page.items.map((item) => item.id));
    }
    expect(paged).toEqual(full.items.map((item) => item.id));
    const even = (await sandbox.app.request('/api/lessons?q=pytest&tag=even&limit=2')).json<ListBody>();
    expect([even.total, even.items.length]).toEqual([6, 2]);
    const none = (await sandbox.app.request('/api/lessons?q=pytest&status=archived')).json<ListBody>();
    expect([none.total, none.items]).toEqual([0, []]);
  });

  // The plain list (no q) is paged the same way: ranked on the index's columns, records parsed for
  // the page only, total counted in SQLite.
  it('pages of the plain list are the full ranking cut in order, with an exact total under filters', async () => {
    const sandbox = createAppSandbox();
    for (let n = 0; n < 12; n += 1) {
      await sandbox.add({
        summary: `lesson ${n}`,
        tags: n % 2 === 0 ? ['even'] : ['odd'],
        priority: 1 + (n % 5),
        confidence: 0.5 + (n % 4) / 10,
      });
    }
    const full = (await sandbox.app.request('/api/lessons?limit=1000&minConfidence=0')).json<ListBody>();
    expect(full.total).toBe(12);
    const paged: string[] = [];
    for (const offset of [0, 5, 10]) {
      const page = (await sandbox.app.request(`/api/lessons?limit=5&offset=${offset}`)).json<ListBody>();
      expect(page.total).toBe(12);
      paged.push(...page.items.map((item) => item.id));
    }
    expect(paged).toEqual(full.items.map((item) => item.id));
    const even = (await sandbox.app.request('/api/lessons?tag=even&limit=2')).json<ListBody>();
    expect([even.total, even.items.length]).toEqual([6, 2]);
    const none = (await sandbox.app.request('/api/lessons?status=archived')).json<ListBody>();
    expect([none.total, none.items]).toEqual([0, []]);
  });

  it('filters a search by minConfidence before cutting the page', async () => {
    const sandbox = createAppSandbox();
    await sandbox.add({
      summary: 'pytest pytest: pytest hangs',
      body: 'pytest pytest pytest',
      confidence: 0.5,
    });
    const sure = await sandbox.add({ summary: 'flaky tests under pytest xdist', confidence: 0.97 });
    const page = (
      await sandbox.app.request('/api/lessons?q=pytest&minConfidence=0.95&limit=1')
    ).json<ListBody>();
    expect(page.items.map((item) => item.id)).toEqual([sure]);
    expect(page.total).toBe(1);
  });

  it('names a lesson file broken on disk while the server runs in problems', async () => {
    const sandbox = createAppSandbox();
    const kept = await sandbox.add({ summary: 'git stash drops untracked files: use git stash -u' });
    const broken = await sandbox.add({ summary: 'pytest hangs on a TTY: run CI=1 pytest' });
    expect((await sandbox.app.request('/api/lessons')).json<ListBody>().problems).toEqual([]);
    const file = `.lore/lessons/${broken}/lesson.yaml`;
    writeFileSync(join(sandbox.repo, file), 'summary: [unclosed\n');

    const list = (await sandbox.app.request('/api/lessons')).json<ListBody>();
    expect(list.items.map((item) => item.id)).toEqual([kept]);
    expect(list.problems).toEqual([
      expect.objectContaining({ file, severity: 'error', message: expect.stringContaining('invalid YAML') }),
    ]);
  });
});
