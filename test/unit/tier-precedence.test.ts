/**
 * Tier precedence in the manifest: project > user > org. A lesson an active lesson of a tier above
 * shares an id or slug with is left out; shadowed org lessons are marked so a later write that
 * could unshadow them builds in full.
 */
import { describe, expect, it } from 'vitest';
import { chooseSources } from '../../src/core/manifest/build-manifest.js';
import type { ManifestSource } from '../../src/core/manifest/build-manifest.js';
import { shadowedKeys } from '../../src/core/manifest/patch-manifest.js';
import { LessonSchema } from '../../src/core/lesson/schema.js';

function source(
  tier: 'project' | 'user' | 'org',
  id: string,
  slug: string,
  status = 'active',
): ManifestSource {
  const lesson = LessonSchema.parse({
    schemaVersion: 1,
    id,
    slug,
    summary: `${tier} ${slug}`,
    tier,
    status,
    createdAt: '2026-11-20T10:00:00.000Z',
    updatedAt: '2026-11-20T10:00:00.000Z',
  });
  return { lesson, file: `${tier}/${id}`, sig: '-', voteScore: 0 };
}

const chosen = (sources: ManifestSource[]) =>
  chooseSources(sources).map((s) => `${s.lesson.tier}:${s.lesson.id}`);

describe('chooseSources across three tiers', () => {
  it.each([
    [
      'a pulled copy of my own pushed lesson gives way to my user lesson',
      [source('user', 'aaaaaaaaaa', 'x'), source('org', 'aaaaaaaaaa', 'x')],
      ['user:aaaaaaaaaa'],
    ],
    [
      'a project lesson hides an org lesson with its slug',
      [source('project', 'bbbbbbbbbb', 'deploy'), source('org', 'cccccccccc', 'deploy')],
      ['project:bbbbbbbbbb'],
    ],
    ['an org lesson alone is chosen', [source('org', 'dddddddddd', 'solo')], ['org:dddddddddd']],
    [
      'an archived user lesson hides nothing',
      [source('user', 'eeeeeeeeee', 'y', 'archived'), source('org', 'eeeeeeeeee', 'y')],
      ['org:eeeeeeeeee'],
    ],
    [
      'all three: only the project one',
      [
        source('org', 'ffffffffff', 'z'),
        source('user', 'ffffffffff', 'z'),
        source('project', 'ffffffffff', 'z'),
      ],
      ['project:ffffffffff'],
    ],
    [
      'different ids and slugs all stay',
      [source('user', 'gggggggggg', 'g'), source('org', 'hhhhhhhhhh', 'h')],
      ['user:gggggggggg', 'org:hhhhhhhhhh'],
    ],
  ])('%s', (_name, sources, expected) => {
    expect(chosen(sources)).toEqual(expected);
  });

  it('marks shadowed org lessons apart from shadowed user lessons', () => {
    const keys = shadowedKeys([
      source('project', 'aaaaaaaaaa', 'p'),
      source('user', 'aaaaaaaaaa', 'u'),
      source('org', 'bbbbbbbbbb', 'u'),
    ]);
    expect(keys).toEqual(['id:aaaaaaaaaa', 'org:id:bbbbbbbbbb', 'org:slug:u', 'slug:u']);
  });
});
