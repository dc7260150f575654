/**
 * The one lesson loader: its rules (id = directory, tier = location, universal only in the user
 * tier), and a misnamed lesson followed through every reader that loads lessons: list and search
 * (the index), the manifest the CLI builds, the manifest the background rebuilder builds from the
 * files (plugin/bin/lore-manifest.cjs), and `lore check`, which names the file.
 */
import { spawnSync } from 'node:child_process';
import { renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseLessonYaml, patchLessonYaml, serializeLesson } from '../../src/core/lesson/lesson-yaml.js';
import type { Tier } from '../../src/core/lesson/schema.js';
import { loadLesson } from '../../src/store/lessons/load-lesson.js';
import { readManifestHead, withManifestReader } from '../../src/store/hook-state/manifest-files.js';
import { createSandbox } from '../helpers/cli.js';
import type { Sandbox } from '../helpers/cli.js';
import { MANIFEST_BUNDLE } from '../helpers/hook.js';
import { lesson } from '../helpers/manifest.js';

const ID = 'a0a0a0a0a0';
const FILE = '.lore/lessons/a0a0a0a0a0/lesson.yaml';

/** lesson.yaml text of a valid lesson with id ID, patched with `fields` (undefined removes one). */
function lessonText(fields: Record<string, unknown> = {}): string {
  return patchLessonYaml(serializeLesson(lesson({ id: ID, summary: 'pytest hangs on a TTY' })), fields);
}

describe('loadLesson', () => {
  it.each([
    { name: 'a valid project lesson', fields: {}, tier: 'project' as Tier, warnings: [] },
    {
      name: 'a file without tier: in the user tier',
      fields: { tier: undefined },
      tier: 'user' as Tier,
      warnings: [],
    },
    {
      name: 'tier: user in the project tier',
      fields: { tier: 'user' },
      tier: 'project' as Tier,
      warnings: ['tier'],
    },
    {
      name: 'tier: project in the user tier',
      fields: { tier: 'project' },
      tier: 'user' as Tier,
      warnings: ['tier'],
    },
    {
      name: 'universal in the user tier',
      fields: { tier: 'user', universal: true },
      tier: 'user' as Tier,
      warnings: [],
    },
    {
      name: 'universal in the project tier',
      fields: { universal: true },
      tier: 'project' as Tier,
      warnings: ['universal'],
    },
  ])('$name loads, in the tier it lives in, warning about $warnings', ({ fields, tier, warnings }) => {
    const loaded = loadLesson({ text: lessonText(fields), file: FILE, tier, id: ID }, parseLessonYaml);
    expect(loaded).toMatchObject({ ok: true, lesson: { id: ID, tier } });
    expect((loaded as { warnings: { field?: string; file: string }[] }).warnings).toEqual(
      warnings.map((field) => expect.objectContaining({ field, file: FILE, severity: 'warning' })),
    );
  });

  it('a lesson whose id is not its directory name is an error naming the file, line and both ids', () => {
    const loaded = loadLesson(
      { text: lessonText(), file: FILE, tier: 'project', id: 'b1b1b1b1b1' },
      parseLessonYaml,
    );
    expect(loaded).toEqual({
      ok: false,
      problems: [
        {
          file: FILE,
          line: 1,
          field: 'id',
          message: `id "${ID}" does not match its directory name "b1b1b1b1b1"; rename one so they agree`,
          severity: 'error',
        },
      ],
    });
  });

  it('a file that does not parse gives the parser problems, with their lines', () => {
    const loaded = loadLesson(
      { text: `${lessonText()}summary: [oops\n`, file: FILE, tier: 'project', id: ID },
      parseLessonYaml,
    );
    expect(loaded.ok).toBe(false);
    expect((loaded as { problems: { file: string; line?: number }[] }).problems).toContainEqual(
      expect.objectContaining({ file: FILE, line: expect.any(Number), severity: 'error' }),
    );
  });
});

/** The ids of the lessons in the workspace's hook manifest, in manifest order. */
function manifestIds(sandbox: Sandbox): string[] {
  const cacheDir = sandbox.inRepo('.lore', 'cache');
  const head = readManifestHead(cacheDir);
  expect(head).toBeDefined();
  const manifest = head as NonNullable<typeof head>;
  return withManifestReader(cacheDir, manifest, (reader) =>
    Array.from({ length: manifest.lessonCount }, (_, n) => reader.readLesson(n)?.id ?? ''),
  );
}

describe('a misnamed lesson (id in lesson.yaml != its directory name)', () => {
  it('is in no list, search or manifest (CLI or background rebuilder); lore check names its file', () => {
    const sandbox = createSandbox();
    const kept = sandbox.add([
      '--summary',
      'pytest needs -p no:cacheprovider on a TTY',
      '--command',
      '^pytest',
    ]);
    const moved = sandbox.add(['--summary', 'pytest hangs on a TTY', '--command', '^pytest']);
    const other = 'zzzzzzzzzz';
    renameSync(sandbox.inRepo('.lore/lessons', moved), sandbox.inRepo('.lore/lessons', other));

    const sync = sandbox.run(['sync', '--json']);
    expect(sync.code).toBe(0);
    expect(manifestIds(sandbox)).toEqual([kept]);
    const listed = sandbox.run(['list', '--status', 'any', '--json']).json<{ lessons: { id: string }[] }>();
    expect(listed.lessons.map((item) => item.id)).toEqual([kept]);
    const found = sandbox.run(['search', 'pytest', '--json']).json<{ results: { id: string }[] }>();
    expect(found.results.map((item) => item.id)).toEqual([kept]);

    // the background rebuilder the hook starts reads the lesson files itself
    rmSync(sandbox.inRepo('.lore', 'cache', 'manifest'), { recursive: true, force: true });
    const rebuilt = spawnSync(process.execPath, [MANIFEST_BUNDLE, '--cwd', sandbox.repo], {
      env: sandbox.env,
      encoding: 'utf8',
    });
    expect(rebuilt.status).toBe(0);
    expect(manifestIds(sandbox)).toEqual([kept]);

    const check = sandbox.run(['check', '--json']);
    expect(check.code).toBe(1);
    expect(check.json<{ problems: unknown[] }>().problems).toContainEqual(
      expect.objectContaining({
        file: join('.lore/lessons', other, 'lesson.yaml'),
        field: 'id',
        severity: 'error',
      }),
    );
  });
});
