import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DRAFT_FIELDS, LessonDraftSchema } from '../../src/core/lesson/draft-schema.js';
import { SEVERITIES } from '../../src/core/lesson/constants.js';
import { ROUTES } from '../../src/adapters/http/api-routes.js';
import { appendAudit } from '../../src/store/hook-state/audit-log.js';
import { createAppSandbox, NOW } from '../helpers/http.js';

type Lesson = { id: string; summary: string; status: string; supersededBy?: string; supersedes: string[] };
type ListBody = {
  items: (Lesson & { votes: { count: number }; matchedBy: string[] })[];
  total: number;
  stats: {
    total: number;
    active: number;
    superseded: number;
    needsReview: number;
    lastIndexed: string | null;
  };
};
type ErrorBody = { error: { code: string; message: string; hint: string | null } };

const PYTEST = {
  summary: 'pytest hangs on a TTY in agent shells: run CI=1 pytest -p no:cacheprovider',
  tools: ['Bash'],
  commands: ['(^|\\s)pytest\\b'],
  tags: ['lang:python'],
};

describe('HTTP API, in-process', () => {
  it('adds, lists, searches, shows, edits, archives and restores lessons through the store', async () => {
    const { app, repo } = createAppSandbox();
    const created = await app.request('/api/lessons', { method: 'POST', body: PYTEST });
    expect(created.status).toBe(201);
    const { id, file } = created.json<{ id: string; file: string }>();
    expect(file).toBe(`.lore/lessons/${id}/lesson.yaml`);
    expect(readFileSync(join(repo, file), 'utf8')).toContain('pytest hangs on a TTY');
    await app.request('/api/lessons', {
      method: 'POST',
      body: { summary: 'git stash drops untracked files: use git stash -u', tags: ['tool:git'] },
    });

    const list = await app.request('/api/lessons?limit=1&offset=0');
    expect(list.status).toBe(200);
    const listed = list.json<ListBody>();
    expect(listed.items).toHaveLength(1);
    expect(listed.total).toBe(2);
    expect(listed.stats).toMatchObject({ total: 2, active: 2, superseded: 0, needsReview: 0 });
    expect(listed.stats.lastIndexed).not.toBeNull();

    const byText = (await app.request('/api/lessons?q=pytest+hangs')).json<ListBody>();
    expect(byText.items.map((l) => l.id)).toEqual([id]);
    expect(byText.items[0]?.matchedBy).toContain('text:summary');
    const byTag = (await app.request('/api/lessons?tag=git')).json<ListBody>();
    expect(byTag.items.map((l) => l.summary)).toEqual(['git stash drops untracked files: use git stash -u']);
    const search = (await app.request('/api/search?q=pytest')).json<{ results: { id: string }[] }>();
    expect(search.results.map((r) => r.id)).toEqual([id]);

    const shown = (await app.request(`/api/lessons/${id.slice(0, 5)}`)).json<{
      lesson: Lesson;
      history: { kind: string }[];
    }>();
    expect(shown.lesson.id).toBe(id);
    expect(shown.history.map((h) => h.kind)).toContain('created');

    const patched = await app.request(`/api/lessons/${id}`, {
      method: 'PATCH',
      body: { summary: 'pytest hangs without CI=1', priority: 9 },
    });
    expect(patched.status).toBe(200);
    expect(patched.json<{ lesson: Lesson & { priority: number } }>().lesson).toMatchObject({
      summary: 'pytest hangs without CI=1',
      priority: 9,
    });

    expect((await app.request(`/api/lessons/${id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await app.request('/api/lessons')).json<ListBody>().items.map((l) => l.id)).not.toContain(id);
    const archived = (await app.request('/api/lessons?status=archived')).json<ListBody>();
    expect(archived.items.map((l) => l.id)).toEqual([id]);
    await app.request(`/api/lessons/${id}`, { method: 'PATCH', body: { status: 'active' } });
    expect((await app.request('/api/lessons')).json<ListBody>().stats.active).toBe(2);
  });

  it('supersedes, upvotes and records feedback; analytics counts firings from the audit log', async () => {
    const sandbox = createAppSandbox();
    const { app } = sandbox;
    const oldId = await sandbox.add(PYTEST);
    const newId = await sandbox.add({
      ...PYTEST,
      summary: 'run pytest as CI=1 pytest -p no:cacheprovider -q',
    });

    const superseded = await app.request(`/api/lessons/${oldId}/supersede`, {
      method: 'POST',
      body: { by: newId },
    });
    expect(superseded.status).toBe(200);
    expect(superseded.json<{ old: Lesson; replacement: Lesson }>()).toMatchObject({
      old: { status: 'superseded', supersededBy: newId },
      replacement: { supersedes: [oldId] },
    });

    const noTask = await app.request(`/api/lessons/${newId}/upvote`, { method: 'POST', body: {} });
    expect(noTask.status).toBe(400);
    expect(noTask.json<ErrorBody>().error.code).toBe('usage');
    const voted = await app.request(`/api/lessons/${newId}/upvote`, {
      method: 'POST',
      body: { task: 'PROJ-1' },
    });
    expect(voted.json()).toMatchObject({ recorded: true, votes: { count: 1 } });
    const again = await app.request(`/api/lessons/${newId}/upvote`, {
      method: 'POST',
      body: { task: 'PROJ-1' },
    });
    expect(again.json()).toMatchObject({ recorded: false, votes: { count: 1 } });

    for (const helpful of [true, true, false]) {
      const response = await app.request(`/api/lessons/${newId}/feedback`, {
        method: 'POST',
        body: { helpful, taskId: 'PROJ-2' },
      });
      expect(response.status).toBe(201);
    }
    const ws = await sandbox.open();
    const sidecar = join(ws.project!.lessonDir(newId).dir, 'feedback.jsonl');
    expect(readFileSync(sidecar, 'utf8').trim().split('\n')).toHaveLength(3);
    for (const [days, ids] of [
      [0, [newId]],
      [0, [newId]],
      [2, [oldId]],
    ] as const) {
      appendAudit(ws.cacheDir, {
        time: new Date(NOW - days * 86_400_000).toISOString(),
        host: 'claude-code',
        session: `s${days}`,
        agent: '',
        event: 'PreToolUse',
        tool: 'Bash',
        source: null,
        lessons: ids.map((id) => ({ id, matched_by: ['command:pytest'], form: 'full' })),
        denied: [],
        bytes: 10,
        dropped: [],
        dropped_count: 0,
      });
    }
    ws.close();

    const analytics = (await app.request('/api/analytics?days=7')).json<{
      injectionsPerDay: { day: string; injections: number }[];
      topLessons: { id: string; fires: number; helpful: number }[];
      fires: Record<string, number>;
      helpful: { helpful: number; notHelpful: number; ratio: number };
      lessonsByTier: { tier: string; active: number; superseded: number }[];
    }>();
    expect(analytics.injectionsPerDay).toHaveLength(7);
    expect(analytics.injectionsPerDay.at(-1)).toEqual({ day: '2026-11-22', injections: 2, denials: 0 });
    expect(analytics.fires).toEqual({ [newId]: 2, [oldId]: 1 });
    expect(analytics.topLessons[0]).toMatchObject({ id: newId, fires: 2, helpful: 2 });
    expect(analytics.helpful).toEqual({ helpful: 2, notHelpful: 1, ratio: 2 / 3 });
    expect(analytics.lessonsByTier).toEqual([{ tier: 'project', active: 1, superseded: 1, archived: 0 }]);

    const detail = (await app.request(`/api/lessons/${newId}`)).json<{
      fires: { count: number };
      feedback: { helpful: number; notHelpful: number };
      supersedes: { id: string }[];
    }>();
    expect(detail).toMatchObject({ fires: { count: 2 }, feedback: { helpful: 2, notHelpful: 1 } });
    expect(detail.supersedes.map((s) => s.id)).toEqual([oldId]);
  });

  it('approves a candidate (with edits) into a lesson and rejects another', async () => {
    const sandbox = createAppSandbox();
    await sandbox.scanFixture();
    const { app } = sandbox;
    const queue = (await app.request('/api/candidates')).json<{
      candidates: { id: string; summary: string }[];
    }>().candidates;
    expect(queue.length).toBeGreaterThanOrEqual(2);
    const [first, second] = queue;

    const approved = await app.request(`/api/candidates/${first!.id}/approve`, {
      method: 'POST',
      body: { summary: 'Read a file before editing it', tags: ['tool:edit'] },
    });
    expect(approved.status).toBe(201);
    const lesson = approved.json<{ id: string; lesson: { summary: string; contentHash: string } }>();
    expect(lesson.lesson.summary).toBe('Read a file before editing it');
    expect(lesson.lesson.contentHash).toMatch(/./);
    const listed = (await app.request('/api/lessons')).json<ListBody>();
    expect(listed.items.map((l) => l.id)).toEqual([lesson.id]);

    const rejected = await app.request(`/api/candidates/${second!.id}/reject`, { method: 'POST' });
    expect(rejected.status).toBe(200);
    const left = (await app.request('/api/candidates')).json<{ candidates: { id: string }[] }>().candidates;
    expect(left.map((c) => c.id)).not.toContain(first!.id);
    expect(left.map((c) => c.id)).not.toContain(second!.id);
    expect(left).toHaveLength(queue.length - 2);
    const ws = await sandbox.open();
    expect(readFileSync(join(sandbox.repo, '.lore', 'candidates', 'decisions.jsonl'), 'utf8')).toContain(
      '"rejected"',
    );
    expect(existsSync(join(sandbox.repo, '.lore', 'candidates', second!.id))).toBe(false);
    ws.close();
  });

  it('explains a call with the hook pipeline, as lore explain does', async () => {
    const sandbox = createAppSandbox();
    const id = await sandbox.add(PYTEST);
    const explained = await sandbox.app.request('/api/explain?tool=Bash&command=pytest+-v+tests%2F');
    expect(explained.status).toBe(200);
    expect(explained.json()).toMatchObject({
      event: 'PreToolUse',
      tool: 'Bash',
      included: [{ id, form: 'full', matched_by: ['command:(^|\\s)pytest\\b'] }],
      summaries: { [id]: PYTEST.summary },
    });
    expect(explained.json<{ additionalContext: string }>().additionalContext).toContain('pytest hangs');
    const none = await sandbox.app.request('/api/explain');
    expect(none.status).toBe(400);
    expect(none.json<ErrorBody>().error.code).toBe('usage');
  });

  it('answers every failure with JSON carrying a code, a message and the right status', async () => {
    const { app } = createAppSandbox();
    const cases: [string, { method?: string; body?: string | object }, number, string][] = [
      ['/api/nope', {}, 404, 'not-found'],
      ['/api/lessons', { method: 'PUT', body: {} }, 405, 'method-not-allowed'],
      ['/api/lessons', { method: 'POST', body: '{not json' }, 400, 'bad-json'],
      ['/api/lessons', { method: 'POST', body: { summary: 'x', colour: 'red' } }, 400, 'unknown-field'],
      ['/api/lessons', { method: 'POST', body: { summary: 'x', tags: 'a' } }, 400, 'bad-field'],
      ['/api/lessons', { method: 'POST', body: { summary: 'x', priority: 11 } }, 422, 'invalid'],
      ['/api/lessons', { method: 'POST', body: { summary: 'x', body: 'y'.repeat(65_537) } }, 422, 'invalid'],
      ['/api/lessons?limit=0', {}, 400, 'bad-parameter'],
      ['/api/lessons/zzzz', {}, 404, 'not-found'],
      ['/api/candidates/zzzz/approve', { method: 'POST' }, 404, 'not-found'],
      ['/api/search', {}, 400, 'missing-parameter'],
      // A filter the route does not have is refused, never silently ignored.
      ['/api/lessons?minConfidance=0.95', {}, 400, 'unknown-parameter'],
      ['/api/lessons/zzzz?verbose=1', {}, 400, 'unknown-parameter'],
      ['/api/lessons?minConfidence=high', {}, 400, 'bad-parameter'],
      ['/api/search?q=x&minConfidence=1.5', {}, 400, 'bad-parameter'],
      // A malformed %-escape in a path parameter is the client's mistake, not a crash.
      ['/api/lessons/%E0%A4%A', {}, 400, 'bad-parameter'],
      ['/api/lessons/%', { method: 'DELETE' }, 400, 'bad-parameter'],
      ['/api/lessons/abc%ZZ/upvote', { method: 'POST', body: { task: 't' } }, 400, 'bad-parameter'],
      ['/api/candidates/%C3', {}, 400, 'bad-parameter'],
    ];
    for (const [url, init, status, code] of cases) {
      const response = await app.request(url, init);
      expect({ url, status: response.status, code: response.json<ErrorBody>().error.code }).toEqual({
        url,
        status,
        code,
      });
      expect(response.json<ErrorBody>().error.message).not.toBe('');
      expect(response.headers['content-type']).toContain('application/json');
    }
  });

  it('names the fields in its refusals as the body spells them, never the CLI flags', async () => {
    const sandbox = createAppSandbox();
    const { app } = sandbox;
    const [a, b, c] = [
      await sandbox.add({ summary: 'lesson a' }),
      await sandbox.add({ summary: 'lesson b' }),
      await sandbox.add({ summary: 'lesson c' }),
    ];
    await app.request(`/api/lessons/${a}/supersede`, { method: 'POST', body: { by: b } });
    const post = (body: object) => app.request('/api/lessons', { method: 'POST', body });
    const cases: [Promise<{ status: number; json<T>(): T }>, number, string, string | null][] = [
      [post({ summary: 'x', priority: 11 }), 422, 'invalid lesson: priority: must be from 1 to 10', null],
      [
        post({ summary: 'x', paths: ['ok/**', '/etc'] }),
        422,
        'invalid lesson: paths[1]: must be relative to the repository root (no leading /)',
        null,
      ],
      [
        post({ summary: 'one\ntwo' }),
        422,
        'invalid lesson: summary: must be a single line',
        'keep the summary to one line; put details in body',
      ],
      [
        post({ tags: ['x'] }),
        400,
        'a lesson needs a summary',
        'pass summary "one line the agent should read"',
      ],
      [
        app.request(`/api/lessons/${c}`, { method: 'PATCH', body: { unset: ['summary'] } }),
        400,
        'unset summary: not a field that can be removed',
        expect.stringContaining('removable fields: slug, body') as unknown as string,
      ],
      [
        app.request(`/api/lessons/${a}/supersede`, { method: 'POST', body: { by: c } }),
        409,
        `${a} is already superseded by ${b}`,
        `supersede ${b} by ${c} instead`,
      ],
    ];
    for (const [response, status, message, hint] of cases) {
      const { error } = (await response).json<ErrorBody>();
      expect({ status: (await response).status, message: error.message, hint: error.hint }).toEqual({
        status,
        message,
        hint,
      });
    }
  });

  it('lists the commits that touched a lesson file in its history', async () => {
    const sandbox = createAppSandbox();
    const id = await sandbox.add({ summary: 'a lesson under git' });
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=Ada', '-c', 'user.email=ada@example.com', ...args], {
        cwd: sandbox.repo,
        env: { PATH: process.env.PATH, HOME: sandbox.base, GIT_CONFIG_NOSYSTEM: '1' },
      });
    git('init', '-q');
    git('add', '.lore');
    git('commit', '-q', '-m', 'lessons\tfrom the sprint');
    const hash = git('rev-parse', '--short', 'HEAD').toString().trim();
    const shown = (await sandbox.app.request(`/api/lessons/${id}`)).json<{
      history: { kind: string; detail: string }[];
    }>();
    expect(shown.history.filter((item) => item.kind === 'commit')).toEqual([
      {
        at: expect.stringMatching(/^\d{4}-/) as unknown as string,
        kind: 'commit',
        detail: `${hash} Ada: lessons\tfrom the sprint`,
      },
    ]);
  });

  // The Persistent Learnings Layer's own example: GET /api/learnings?minConfidence=0.95.
  it('filters by minConfidence on the list and search, and names the parameters a route takes', async () => {
    const sandbox = createAppSandbox();
    const { app } = sandbox;
    const sure = await sandbox.add({ ...PYTEST, confidence: 0.97 });
    await sandbox.add({ summary: 'pytest -x stops at the first failure', confidence: 0.6 });
    const listed = (await app.request('/api/lessons?minConfidence=0.95')).json<ListBody>();
    expect(listed.items.map((l) => l.id)).toEqual([sure]);
    expect(listed.total).toBe(1);
    const found = (await app.request('/api/search?q=pytest&minConfidence=0.95')).json<{
      results: { id: string }[];
    }>();
    expect(found.results.map((r) => r.id)).toEqual([sure]);
    expect((await app.request('/api/lessons?minConfidence=0')).json<ListBody>().total).toBe(2);
    const refused = await app.request('/api/lessons?minConfidance=0.95');
    expect(refused.json<ErrorBody>().error.hint).toContain('minConfidence');
  });

  // The Persistent Learnings Layer's own POST body (title, context, ..., domain) and ?domain= filter.
  it('takes a COIA-shaped POST and filters by domain', async () => {
    const sandbox = createAppSandbox();
    const { app } = sandbox;
    const created = await app.request('/api/lessons', {
      method: 'POST',
      body: {
        title: 'Stripe OAuth needs the platform account id',
        context: 'Connecting merchant accounts',
        observation: 'connect calls failed with account_invalid',
        implication: 'every connect call needs the account',
        action: 'pass stripe_account on every connect call',
        tags: ['oauth', 'stripe'],
        domain: 'api-integration',
        pattern_type: 'gotcha',
        source_task_id: 'task_42',
        source_outcome_id: 'outcome_7',
      },
    });
    expect(created.status, created.text()).toBe(201);
    const lesson = created.json<{ id: string; lesson: Record<string, unknown> }>().lesson;
    expect(lesson).toMatchObject({
      summary: 'Stripe OAuth needs the platform account id',
      context: 'Connecting merchant accounts',
      action: 'pass stripe_account on every connect call',
      tags: ['oauth', 'stripe', 'domain:api-integration', 'pattern:gotcha'],
      evidence: [
        { kind: 'task', ref: 'task_42' },
        { kind: 'task', ref: 'outcome_7', note: 'source outcome' },
      ],
    });
    await sandbox.add({ summary: 'index the users table', tags: ['domain:database'] });
    const inDomain = (await app.request('/api/lessons?domain=api-integration')).json<ListBody>();
    expect(inDomain.items.map((l) => l.summary)).toEqual(['Stripe OAuth needs the platform account id']);
    const bad = await app.request('/api/lessons', {
      method: 'POST',
      body: { title: 'x', pattern_type: 'anecdote' },
    });
    expect(bad.status).toBe(400);
    expect(bad.json<ErrorBody>().error.message).toContain('solution, gotcha, best-practice, constraint');
  });

  it('documents exactly the query parameters each route takes', async () => {
    const { app } = createAppSandbox();
    type Op = { parameters?: { name: string; in: string }[] };
    const doc = (await app.request('/api/openapi.json')).json<{
      paths: Record<string, Record<string, Op>>;
    }>();
    for (const route of ROUTES) {
      const op = doc.paths[route.path.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()];
      const names = (op?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      expect({ route: route.path, names: names.sort() }).toEqual({
        route: route.path,
        names: [...route.query].sort(),
      });
    }
  });

  it('documents the lesson draft of every surface in /api/openapi.json', async () => {
    const { app } = createAppSandbox();
    const doc = (await app.request('/api/openapi.json')).json<{
      components: { schemas: { LessonDraft: { properties: Record<string, { enum?: string[] }> } } };
    }>();
    const draft = z.toJSONSchema(LessonDraftSchema(), { target: 'draft-2020-12', io: 'input' });
    expect(doc.components.schemas.LessonDraft.properties).toEqual(draft.properties);
    expect(doc.components.schemas.LessonDraft.properties.severity?.enum).toEqual([...SEVERITIES]);
    expect(Object.keys(doc.components.schemas.LessonDraft.properties)).toEqual([...DRAFT_FIELDS]);
  });

  it('describes every route in /api/openapi.json', async () => {
    const { app } = createAppSandbox();
    const doc = (await app.request('/api/openapi.json')).json<{
      openapi: string;
      paths: Record<string, Record<string, unknown>>;
    }>();
    expect(doc.openapi).toBe('3.1.0');
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops)
        .filter((key) => key !== 'parameters')
        .map((method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    expect(documented.sort()).toEqual(ROUTES.map((r) => `${r.method} ${r.path}`).sort());
  });
});
