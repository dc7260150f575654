/**
 * The organisation routes (`/api/org/...`) of `lore serve --org`. Each checks the caller's role,
 * translates the request to one call of src/store/org, and its result to JSON, nothing more.
 * Roles: read (pull, search, list), write (push, vote, edit own proposals), curate (accept,
 * reject, edit any, supersede), admin (tokens, audit).
 */
import { ID_PATTERN } from '../../core/lesson/constants.js';
import { readAudit } from '../../store/org/org-audit.js';
import type { OrgDb } from '../../store/org/org-db.js';
import {
  fetchOrgLessons,
  getOrgLesson,
  LESSON_STATES,
  listOrgLessons,
  orgLessonIndex,
  ownProposals,
} from '../../store/org/org-lessons.js';
import {
  forbidden,
  notFound,
  pushOrgLessons,
  reviewOrgLesson,
  updateOrgLesson,
} from '../../store/org/org-lesson-writes.js';
import type { PushItem } from '../../store/org/org-lesson-writes.js';
import { searchOrgLessons } from '../../store/org/org-search.js';
import { createToken, isRole, revokeTokens, roleAllows, ROLES } from '../../store/org/org-tokens.js';
import type { Principal, Role } from '../../store/org/org-tokens.js';
import { voteOrgLesson } from '../../store/org/org-votes.js';
import { supersedeOrgLesson } from '../../store/org/supersede-org-lesson.js';
import type { AppRequest } from './app-types.js';
import { HttpError } from './http-error.js';
import { choiceParam, intParam, parseJsonBody, stringField } from './request-body.js';

export type OrgRouteContext = {
  request: AppRequest;
  params: Record<string, string>;
  who: Principal;
  db: OrgDb;
  nowMs: number;
};

export type OrgRoute = {
  method: string;
  path: string;
  /** The least role that may call it. */
  role: Role;
  /** The query parameters it reads: any other is a 400 `unknown-parameter`, as on the local API. */
  query?: readonly string[];
  handler: (ctx: OrgRouteContext) => Promise<{ status?: number; body: unknown }>;
};

/** Batches are bounded so one request cannot hold a transaction for long. */
export const MAX_BATCH = 1000;

function lessonId(ctx: OrgRouteContext): string {
  const id = ctx.params.id ?? '';
  if (!ID_PATTERN.test(id)) throw new HttpError(400, 'bad-parameter', `"${id}" is not a lesson id`);
  return id;
}

function pushItems(body: Record<string, unknown>): PushItem[] {
  const lessons = body.lessons;
  if (!Array.isArray(lessons) || lessons.length === 0)
    throw new HttpError(
      400,
      'missing-field',
      'the body needs "lessons": [{"lesson": {...}, "baseVersion": N}, ...]',
    );
  if (lessons.length > MAX_BATCH)
    throw new HttpError(413, 'too-large', `at most ${MAX_BATCH} lessons per push; got ${lessons.length}`, {
      hint: 'send them in batches',
    });
  return lessons.map((item: unknown, i) => {
    const entry = item as { lesson?: unknown; baseVersion?: unknown; votes?: unknown } | null;
    if (entry === null || typeof entry !== 'object' || entry.lesson === undefined)
      throw new HttpError(400, 'bad-field', `lessons[${i}] must be {"lesson": {...}, "baseVersion"?: N}`);
    const base = entry.baseVersion;
    if (base !== undefined && base !== null && !(Number.isInteger(base) && (base as number) > 0))
      throw new HttpError(400, 'bad-field', `lessons[${i}].baseVersion must be a positive integer`);
    const votes = entry.votes ?? [];
    const valid = (v: unknown) => {
      const vote = v as { model?: unknown; task?: unknown } | null;
      return (
        typeof vote?.model === 'string' &&
        vote.model !== '' &&
        typeof vote.task === 'string' &&
        vote.task !== ''
      );
    };
    if (!Array.isArray(votes) || !votes.every(valid))
      throw new HttpError(400, 'bad-field', `lessons[${i}].votes must be [{"model": "...", "task": "..."}]`);
    return {
      lesson: entry.lesson,
      ...(typeof base === 'number' ? { baseVersion: base } : {}),
      ...(votes.length > 0 ? { votes: votes as Array<{ model: string; task: string }> } : {}),
    };
  });
}

const lessonRoutes: OrgRoute[] = [
  {
    method: 'GET',
    path: '/api/org/whoami',
    role: 'read',
    handler: async ({ who, db }) => ({
      body: { org: who.org, user: who.user, role: who.role, server: db.kind },
    }),
  },
  {
    method: 'GET',
    path: '/api/org/index',
    query: ['project'],
    role: 'read',
    handler: async ({ who, db, request }) => ({
      body: {
        lessons: await orgLessonIndex(db, who.orgId, request.query.get('project') ?? undefined),
        proposals: await ownProposals(db, who.orgId, who.user),
      },
    }),
  },
  {
    method: 'POST',
    path: '/api/org/fetch',
    role: 'read',
    handler: async ({ who, db, request }) => {
      const ids = parseJsonBody(request.body).ids;
      if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string' && !id.includes('\u0000')))
        throw new HttpError(400, 'bad-field', 'the body needs "ids": ["lesson id", ...]');
      if (ids.length > MAX_BATCH) throw new HttpError(413, 'too-large', `at most ${MAX_BATCH} ids per fetch`);
      return { body: { lessons: await fetchOrgLessons(db, who.orgId, ids as string[]) } };
    },
  },
  {
    method: 'GET',
    path: '/api/org/lessons',
    query: ['state', 'project', 'proposedBy', 'limit'],
    role: 'read',
    handler: async ({ who, db, request }) => {
      const q = request.query;
      const state = choiceParam(q.get('state'), 'state', LESSON_STATES);
      const lessons = await listOrgLessons(db, who.orgId, {
        ...(state ? { state } : {}),
        ...(q.get('project') ? { project: q.get('project') as string } : {}),
        ...(q.get('proposedBy') ? { proposedBy: q.get('proposedBy') as string } : {}),
        limit: intParam(q.get('limit'), 'limit', { min: 1, max: 10_000 }) ?? 500,
      });
      return { body: { lessons } };
    },
  },
  {
    method: 'GET',
    path: '/api/org/lessons/:id',
    role: 'read',
    handler: async (ctx) => {
      const found = await getOrgLesson(ctx.db, ctx.who.orgId, lessonId(ctx));
      if (!found) throw notFound(lessonId(ctx));
      return { body: found };
    },
  },
  {
    method: 'GET',
    path: '/api/org/search',
    query: ['q', 'limit', 'project'],
    role: 'read',
    handler: async ({ who, db, request }) => {
      const q = request.query;
      const query = q.get('q') ?? '';
      if (query.trim() === '') throw new HttpError(400, 'missing-parameter', 'search needs ?q=words');
      const results = await searchOrgLessons(db, who.orgId, query, {
        limit: intParam(q.get('limit'), 'limit', { min: 1, max: 1000 }) ?? 10,
        ...(q.get('project') ? { project: q.get('project') as string } : {}),
      });
      return { body: { results } };
    },
  },
];

const writeRoutes: OrgRoute[] = [
  {
    method: 'POST',
    path: '/api/org/lessons',
    role: 'write',
    handler: async ({ who, db, request }) => {
      const body = parseJsonBody(request.body);
      const project = stringField(body, 'project');
      const results = await pushOrgLessons(db, who, pushItems(body), project ? { project } : {});
      return { body: { results } };
    },
  },
  {
    method: 'PUT',
    path: '/api/org/lessons/:id',
    role: 'write',
    handler: async (ctx) => {
      const body = parseJsonBody(ctx.request.body);
      const version = body.version;
      if (!Number.isInteger(version))
        throw new HttpError(400, 'missing-field', 'the body needs "version": N (the version you edited)');
      const lesson = body.lesson as { id?: unknown } | undefined;
      if (lesson?.id !== lessonId(ctx))
        throw new HttpError(400, 'bad-field', 'lesson.id must be the id in the path');
      return { body: await updateOrgLesson(ctx.db, ctx.who, lesson, version as number) };
    },
  },
  ...(['accept', 'reject'] as const).map((decision): OrgRoute => ({
    method: 'POST',
    path: `/api/org/lessons/:id/${decision}`,
    role: 'curate',
    handler: async (ctx) => ({ body: await reviewOrgLesson(ctx.db, ctx.who, lessonId(ctx), decision) }),
  })),
  {
    method: 'POST',
    path: '/api/org/lessons/:id/votes',
    role: 'write',
    handler: async (ctx) => {
      const body = parseJsonBody(ctx.request.body);
      const model = stringField(body, 'model', true) as string;
      const task = stringField(body, 'task', true) as string;
      if (model.trim() === '' || task.trim() === '')
        throw new HttpError(400, 'bad-field', 'model and task must not be empty');
      return { body: await voteOrgLesson(ctx.db, ctx.who, lessonId(ctx), { model, task }) };
    },
  },
  {
    method: 'POST',
    path: '/api/org/lessons/:id/supersede',
    role: 'curate',
    handler: async (ctx) => {
      const by = stringField(parseJsonBody(ctx.request.body), 'by', true) as string;
      if (!ID_PATTERN.test(by) || by === lessonId(ctx))
        throw new HttpError(400, 'bad-field', '"by" must be the id of another lesson');
      const nowIso = new Date(ctx.nowMs).toISOString();
      return { body: await supersedeOrgLesson(ctx.db, ctx.who, lessonId(ctx), by, nowIso) };
    },
  },
];

const adminRoutes: OrgRoute[] = [
  {
    method: 'GET',
    path: '/api/org/audit',
    query: ['limit', 'before', 'lesson'],
    role: 'admin',
    handler: async ({ who, db, request }) => {
      const q = request.query;
      const entries = await readAudit(db, who.orgId, {
        limit: intParam(q.get('limit'), 'limit', { min: 1, max: 10_000 }) ?? 100,
        ...(q.get('before')
          ? {
              before: intParam(q.get('before'), 'before', { min: 1, max: Number.MAX_SAFE_INTEGER }) as number,
            }
          : {}),
        ...(q.get('lesson') ? { lessonId: q.get('lesson') as string } : {}),
      });
      return { body: { entries } };
    },
  },
  {
    method: 'POST',
    path: '/api/org/tokens',
    role: 'admin',
    handler: async ({ who, db, request }) => {
      const body = parseJsonBody(request.body);
      const user = stringField(body, 'user', true) as string;
      const role = stringField(body, 'role', true) as string;
      if (!isRole(role)) throw new HttpError(400, 'bad-field', `role must be one of ${ROLES.join(', ')}`);
      const created = await createToken(db, { org: who.org, user, role, actor: who.user });
      return { status: 201, body: created };
    },
  },
  {
    method: 'DELETE',
    path: '/api/org/tokens/:user',
    role: 'admin',
    handler: async ({ who, db, params }) => ({
      body: {
        user: params.user,
        revoked: await revokeTokens(db, { org: who.org, user: params.user ?? '', actor: who.user }),
      },
    }),
  },
];

export const ORG_ROUTES: readonly OrgRoute[] = [...lessonRoutes, ...writeRoutes, ...adminRoutes];

/** The role check every org route passes first: 403 with the role it needs. */
export function requireRole(who: Principal, route: OrgRoute): void {
  if (!roleAllows(who.role, route.role)) throw forbidden(who, `${route.method} ${route.path}`, route.role);
}
