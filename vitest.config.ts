import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    env: { TZ: 'UTC', NO_COLOR: '1', NODE_EXTRA_CA_CERTS: '' },
  },
});
