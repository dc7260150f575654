/** In-memory manifests for stage tests: lessons from partial records, built by the real builder. */
import { buildManifest } from '../../src/core/manifest/build-manifest.js';
import { DEFAULT_INJECT_SETTINGS } from '../../src/core/inject/types.js';
import type { HookEvent, InjectSettings, Manifest, ManifestSkill } from '../../src/core/inject/types.js';
import { LessonSchema } from '../../src/core/lesson/schema.js';
import type { Lesson, LessonFields } from '../../src/core/lesson/schema.js';

let counter = 0;

/** A valid lesson from a few fields; ids are 10 base32 characters, made unique per call. */
export function lesson(fields: Partial<LessonFields> & { summary: string }): Lesson {
  counter += 1;
  const id = fields.id ?? `t${counter.toString(32).padStart(9, '0')}`.replace(/[ilou]/g, 'x');
  return LessonSchema.parse({
    schemaVersion: 1,
    slug: `lesson-${id}`,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...fields,
    id,
  });
}

export function manifestOf(
  lessons: readonly Lesson[],
  options: {
    stack?: string[];
    settings?: Partial<InjectSettings>;
    blockSize?: number;
    skills?: Record<string, ManifestSkill>;
  } = {},
): Manifest {
  return buildManifest({
    lessons: lessons.map((l) => ({
      lesson: l,
      file: `/repo/.lore/lessons/${l.id}/lesson.yaml`,
      sig: '1:1',
      voteScore: 0,
    })),
    settings: { ...DEFAULT_INJECT_SETTINGS, ...options.settings },
    stack: options.stack ?? [],
    projectRoot: '/repo',
    sources: [],
    nowMs: 0,
    generation: 'test',
    blockSize: options.blockSize ?? 4,
    ...(options.skills === undefined ? {} : { skills: options.skills }),
  });
}

/** A Bash call in /repo, session `s`, as the parse stage hands it on; `fields` adds or overrides. */
export function bashEvent(command: string, fields: Partial<HookEvent> = {}): HookEvent {
  return {
    event: 'PreToolUse',
    sessionId: 's',
    agentId: 'main',
    cwd: '/repo',
    tool: 'Bash',
    command,
    paths: [],
    ...fields,
  };
}
