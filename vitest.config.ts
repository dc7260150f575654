import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The real-agent tests run after the rest, with their own config (npm run test:agents).
    exclude: ['test/e2e-agents/**', '**/node_modules/**'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    env: { TZ: 'UTC', NO_COLOR: '1', NODE_EXTRA_CA_CERTS: '' },
  },
});
