/**
 * The published JSON Schemas, generated from the zod definitions so they never drift.
 */
import { z } from 'zod';
import { ConfigSchema, LessonSchema } from './schema.js';

const BASE = 'https://lore.dev/schema';

function render(schema: z.ZodType, id: string, title: string, description: string): string {
  const json = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    target: 'draft-2020-12',
  }) as Record<string, unknown>;
  const out = { ...json, $id: `${BASE}/${id}`, title, description };
  return `${JSON.stringify(out, null, 2)}\n`;
}

export function renderSchemas(): Record<string, string> {
  return {
    'lesson.schema.json': render(
      LessonSchema,
      'lesson.schema.json',
      'lore lesson',
      'One lesson: .lore/lessons/<id>/lesson.yaml. Unknown fields are kept, with a warning.',
    ),
    'config.schema.json': render(
      ConfigSchema,
      'config.schema.json',
      'lore config',
      'lore configuration: .lore/config.yaml (project) over $LORE_HOME/config.yaml (user).',
    ),
  };
}
