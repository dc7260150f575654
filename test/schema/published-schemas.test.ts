import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderSchemas } from '../../src/core/lesson/json-schema.js';

describe('published JSON Schemas', () => {
  it.each(Object.entries(renderSchemas()))(
    'schema/%s matches the zod definition (run `npm run schema`)',
    (name, text) => {
      expect(readFileSync(new URL(`../../schema/${name}`, import.meta.url), 'utf8')).toBe(text);
    },
  );

  it('lesson schema lists the required identity and time fields', () => {
    const schema = JSON.parse(renderSchemas()['lesson.schema.json'] ?? '{}') as { required: string[] };
    expect(schema.required).toEqual(
      expect.arrayContaining(['schemaVersion', 'id', 'slug', 'summary', 'createdAt', 'updatedAt']),
    );
  });
});
