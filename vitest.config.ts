import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'plugins/**/*.test.ts', 'backends/**/*.test.ts', 'kernel/**/*.test.ts', 'toolkit/**/*.test.ts', 'app/**/*.test.ts'],
    setupFiles: ['test/support/setup-env.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two cores on CI: spawning servers in many files at once only adds contention.
    maxWorkers: process.env.CI ? 2 : undefined,
  },
});
