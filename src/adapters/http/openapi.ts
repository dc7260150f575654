/**
 * The API described as OpenAPI 3.1, served at /api/openapi.json. The lesson draft component is
 * the draft every surface takes (src/core/lesson/draft-schema.ts), converted to JSON Schema when
 * the document is first asked for.
 */
import { z } from 'zod';
import { STATUSES, TIERS } from '../../core/lesson/constants.js';
import { LessonDraftSchema } from '../../core/lesson/draft-schema.js';

const error = { $ref: '#/components/responses/Error' };
const id = {
  name: 'id',
  in: 'path',
  required: true,
  schema: { type: 'string' },
  description: 'id, unique id prefix or slug',
};
const query = (name: string, description: string, schema: object = { type: 'string' }) => ({
  name,
  in: 'query',
  required: false,
  schema,
  description,
});
const jsonBody = (schema: object, required = true) => ({
  required,
  content: { 'application/json': { schema } },
});
const ok = (description: string, schema: object = { type: 'object' }) => ({
  description,
  content: { 'application/json': { schema } },
});
const draft = { $ref: '#/components/schemas/LessonDraft' };
/** A draft plus the route's own keys; any other key is refused (as the API does, with a 400). */
const draftBody = (properties: Record<string, object>) => ({
  allOf: [draft, { type: 'object', properties }],
  unevaluatedProperties: false,
});
const tier = { enum: [...TIERS] };
const lessonFilters = [
  query('tag', 'only lessons with this tag (repeatable; a bare value matches category:value)'),
  query('tool', 'only lessons scoped to this tool (repeatable)'),
  query('status', 'active (default), superseded, archived or any', { enum: [...STATUSES, 'any'] }),
  query('tier', 'project or user', { enum: [...TIERS] }),
  query('domain', 'only lessons of this domain (the tag domain:<v>, or an imported COIA domain)'),
  query('minConfidence', 'only lessons with at least this confidence (0-1)', {
    type: 'number',
    minimum: 0,
    maximum: 1,
  }),
];

/** The draft as a JSON Schema component, open so the request bodies can add their keys to it. */
function draftComponent(): Record<string, unknown> {
  const {
    $schema: _,
    additionalProperties: __,
    ...schema
  } = z.toJSONSchema(LessonDraftSchema(), {
    io: 'input',
    target: 'draft-2020-12',
  });
  return {
    ...schema,
    description: 'the fields of lore add / lore update (schema/lesson.schema.json has their rules)',
  };
}

const DOCUMENT = {
  openapi: '3.1.0',
  info: {
    title: 'lore API',
    version: '1',
    description:
      'Lessons, candidates, explain, analytics and the last replay of one lore workspace. Loopback needs no token; other addresses need `Authorization: Bearer <LORE_TOKEN>`. Mutating requests must send JSON and, from a browser, come from the same origin.',
  },
  security: [{}, { bearer: [] }],
  paths: {
    '/api/status': { get: { summary: 'the workspace being served', responses: { 200: ok('workspace') } } },
    '/api/lessons': {
      get: {
        summary: 'list lessons (q: full-text search), with store statistics',
        parameters: [
          query('q', 'full-text query (BM25, as lore search)'),
          query('hybrid', '1: with q, blend in embedding similarity (notice says when it could not)'),
          ...lessonFilters,
          query('path', 'only lessons whose path globs match this repo-relative path'),
          query('limit', '1-1000, default 100', { type: 'integer' }),
          query('offset', 'default 0', { type: 'integer' }),
        ],
        responses: {
          200: ok('items and stats', {
            type: 'object',
            required: ['items', 'total', 'stats'],
            properties: {
              items: { type: 'array', items: { $ref: '#/components/schemas/Lesson' } },
              total: { type: 'integer' },
              offset: { type: 'integer' },
              limit: { type: 'integer' },
              stats: {
                type: 'object',
                properties: {
                  total: { type: 'integer' },
                  active: { type: 'integer' },
                  superseded: { type: 'integer' },
                  archived: { type: 'integer' },
                  needsReview: { type: 'integer' },
                  lastIndexed: { type: ['string', 'null'] },
                },
              },
              problems: {
                description:
                  'lesson files that could not be loaded (left out of items), as lore check names them',
                type: 'array',
                items: {
                  type: 'object',
                  required: ['file', 'message', 'severity'],
                  properties: {
                    file: { type: 'string' },
                    line: { type: 'integer' },
                    field: { type: 'string' },
                    message: { type: 'string' },
                    severity: { type: 'string' },
                  },
                },
              },
            },
          }),
          400: error,
        },
      },
      post: {
        summary:
          'add a lesson (as lore add); a COIA-shaped body is taken too: title for summary, domain and pattern_type as the tags domain:<v> and pattern:<v>, source ids as task evidence',
        requestBody: jsonBody(
          draftBody({
            tier,
            title: { type: 'string' },
            domain: { type: 'string' },
            pattern_type: { enum: ['solution', 'gotcha', 'best-practice', 'constraint'] },
            source_task_id: { type: 'string' },
            source_outcome_id: { type: 'string' },
            source_discovery_id: { type: 'string' },
            force: { type: 'boolean', description: 'save a trigger the breadth check finds too broad' },
          }),
        ),
        responses: {
          201: ok('the new lesson, with `breadth`: the calls its trigger would have fired on'),
          400: error,
          409: error,
          422: error,
        },
      },
    },
    '/api/lessons/{id}': {
      parameters: [id],
      get: {
        summary:
          'one lesson with votes, feedback, firings from the audit log, history, its figures in the last replay (replay) and outcome feedback (outcomes)',
        responses: { 200: ok('the lesson'), 404: error, 409: error },
      },
      patch: {
        summary: 'change fields (as lore update); status active|archived; unset: field names to remove',
        requestBody: jsonBody(
          draftBody({
            status: { enum: ['active', 'archived'] },
            unset: { type: 'array', items: { type: 'string' } },
            force: { type: 'boolean', description: 'save a trigger the breadth check finds too broad' },
            ifUnchanged: {
              type: 'object',
              description:
                'the values fields had when the edit began (null: absent); one changed since is a 409 conflict and nothing is written',
            },
          }),
        ),
        responses: {
          200: ok('the changed lesson (with `breadth` when the trigger changed)'),
          400: error,
          404: error,
          409: error,
          422: error,
        },
      },
      delete: {
        summary: 'archive the lesson (as lore archive)',
        responses: { 200: ok('archived'), 404: error },
      },
    },
    '/api/lessons/{id}/supersede': {
      parameters: [id],
      post: {
        summary: 'this lesson is replaced by `by` (as lore supersede ID --with BY)',
        requestBody: jsonBody({ type: 'object', required: ['by'], properties: { by: { type: 'string' } } }),
        responses: { 200: ok('both lessons'), 404: error, 409: error },
      },
    },
    '/api/lessons/{id}/feedback': {
      parameters: [id],
      post: {
        summary: 'record whether the lesson helped with a task (feedback.jsonl sidecar)',
        requestBody: jsonBody({
          type: 'object',
          required: ['helpful', 'taskId'],
          properties: { helpful: { type: 'boolean' }, taskId: { type: 'string' }, model: { type: 'string' } },
        }),
        responses: { 201: ok('counts after the report'), 400: error, 404: error },
      },
    },
    '/api/lessons/{id}/keep': {
      parameters: [id],
      post: {
        summary:
          'keep a lesson held for review (by its outcomes, or by an import that found its trigger too broad): clears needsReview, so the hook injects it again (as lore review --keep)',
        responses: { 200: ok('id, tier, wasHeld, the lesson'), 404: error },
      },
    },
    '/api/lessons/{id}/upvote': {
      parameters: [id],
      post: {
        summary: 'one vote per (lesson, model, task), as lore upvote; model defaults to "human"',
        requestBody: jsonBody({
          type: 'object',
          required: ['task'],
          properties: { task: { type: 'string' }, model: { type: 'string' } },
        }),
        responses: { 200: ok('whether it was recorded, and the vote summary'), 400: error, 404: error },
      },
    },
    '/api/review/held': {
      get: {
        summary:
          'lessons held for review (needsReview), with their judged outcomes, the transcript lines where their mistake repeated, and the breadth of their trigger',
        responses: { 200: ok('{lessons, skippedOutcomes}') },
      },
    },
    '/api/search': {
      get: {
        summary: 'ranked full-text search (as lore search)',
        parameters: [
          { ...query('q', 'the words'), required: true },
          ...lessonFilters.filter((p) => p.name !== 'tool'),
          query('limit', '1-1000', { type: 'integer' }),
          query('hybrid', '1: blend BM25 with embedding similarity (mode, fallback say what ran)'),
        ],
        responses: { 200: ok('results with matchedBy and score'), 400: error },
      },
    },
    '/api/candidates': {
      get: {
        summary:
          'the review queue, repeated and user-corrected first; held: lessons held by their outcomes, with the repeats; guardProposals',
        responses: { 200: ok('candidates, held, guardProposals') },
      },
    },
    '/api/candidates/{id}': {
      parameters: [id],
      get: { summary: 'one candidate and its full record', responses: { 200: ok('candidate'), 404: error } },
    },
    '/api/candidates/{id}/approve': {
      parameters: [id],
      post: {
        summary: 'make the candidate a lesson; body fields edit it on the way (as lore candidates approve)',
        requestBody: jsonBody(
          draftBody({
            tier,
            force: { type: 'boolean', description: 'save a trigger the breadth check finds too broad' },
          }),
          false,
        ),
        responses: {
          201: ok('the new lesson, with `breadth`'),
          404: error,
          409: error,
          422: error,
        },
      },
    },
    '/api/candidates/{id}/reject': {
      parameters: [id],
      post: {
        summary: 'drop the candidate; its pattern is never proposed again',
        responses: { 200: ok('rejected'), 404: error },
      },
    },
    '/api/analytics': {
      get: {
        summary:
          'injections per day, top lessons, helpful ratio, fire counts, lessons and candidates by source; outcome feedback per ISO week (prevented, noise, repeated, unlinked)',
        parameters: [
          query('days', '1-366, default 30', { type: 'integer' }),
          query('weeks', 'weeks of outcomesPerWeek, 1-104, default 12', { type: 'integer' }),
        ],
        responses: { 200: ok('analytics') },
      },
    },
    '/api/replay': {
      get: {
        summary:
          'the last replay (lore replay): overall figures, per-lesson fires, hits, misses, noise, prevented, precision by delivery form, and suggestions',
        responses: { 200: ok('the replay report, with the file it was read from'), 404: error, 422: error },
      },
    },
    '/api/explain': {
      get: {
        summary: 'dry-run the hook for one call (as lore explain): what would be injected or denied, and why',
        parameters: [
          query('tool', 'Bash, Edit, Read, ... (default Bash with a command, Edit with a path)'),
          query('command', 'the shell command'),
          query('path', 'a repo-relative path (repeatable)'),
          query('content', 'the text an Edit or Write would write (for content patterns)'),
          query('prompt', 'a user prompt'),
          query('event', 'PreToolUse, UserPromptSubmit, SessionStart, SubagentStart'),
        ],
        responses: { 200: ok('the explanation'), 400: error },
      },
    },
    '/api/openapi.json': { get: { summary: 'this document', responses: { 200: ok('OpenAPI 3.1') } } },
  },
  components: {
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    responses: {
      Error: {
        description: 'an error',
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['error'],
              properties: {
                error: {
                  type: 'object',
                  required: ['code', 'message'],
                  properties: {
                    code: { type: 'string' },
                    message: { type: 'string' },
                    hint: { type: ['string', 'null'] },
                    details: {},
                  },
                },
              },
            },
          },
        },
      },
    },
    schemas: {
      Lesson: {
        type: 'object',
        description: 'a lesson record plus file, votes {count, lastVotedAt, score} and matchedBy',
      },
    },
  },
};

let built: object | undefined;

export function openApiDocument(): object {
  built ??= {
    ...DOCUMENT,
    components: {
      ...DOCUMENT.components,
      schemas: { LessonDraft: draftComponent(), ...DOCUMENT.components.schemas },
    },
  };
  return built;
}
