import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The real-agent tests: one agent at a time (each run spawns a large native binary, and CI has two
// cores), after the rest of the suite.
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['*.test.ts'],
    environment: 'node',
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 90_000,
    hookTimeout: 60_000,
    env: { TZ: 'UTC', NO_COLOR: '1', NODE_EXTRA_CA_CERTS: '' },
  },
});
