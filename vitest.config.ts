import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The real-agent tests run after the rest, with their own config (npm run test:agents).
    exclude: ['test/e2e-agents/**', '**/node_modules/**'],
    environment: 'node',
    pool: 'forks',
    // Two test files at a time, even on 2 cores (vitest's default there is one): most tests wait on
    // the processes they spawn, and one file at a time kept the machine 40% idle (the whole run took
    // 1,121 s that way, 836 s with two, on this 2-core machine).
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    env: { TZ: 'UTC', NO_COLOR: '1', NODE_EXTRA_CA_CERTS: '' },
  },
});
