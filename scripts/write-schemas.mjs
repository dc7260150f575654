// Writes schema/*.schema.json from the zod definitions in src/core/lesson/schema.ts (built to
// dist/). Run by `npm run schema`; a test fails when the committed files are out of date.
import { writeFileSync } from 'node:fs';
import { renderSchemas } from '../dist/core/lesson/json-schema.js';

for (const [name, text] of Object.entries(renderSchemas())) {
  writeFileSync(new URL(`../schema/${name}`, import.meta.url), text);
  console.log(`wrote schema/${name}`);
}
