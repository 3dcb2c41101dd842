import path from 'node:path';
import { defineConfig } from 'vitest/config';

const root = path.dirname(new URL(import.meta.url).pathname);

export default defineConfig({
  // The examples import the package by name; in tests that name means the sources (as in tsconfig).
  resolve: {
    alias: [
      { find: /^notekernel$/, replacement: path.join(root, 'app/index.ts') },
      { find: /^notekernel\/profiles$/, replacement: path.join(root, 'profiles/catalogue.ts') },
      { find: /^notekernel\/testing$/, replacement: path.join(root, 'testing/index.ts') },
      {
        find: /^notekernel\/(plugins|backends)\/([a-z-]+)(\/index\.js)?$/,
        replacement: path.join(root, '$1/$2/index.ts'),
      },
    ],
  },
  test: {
    include: [
      'test/**/*.test.ts',
      'examples/**/*.test.ts',
      'plugins/**/*.test.ts',
      'backends/**/*.test.ts',
      'kernel/**/*.test.ts',
      'toolkit/**/*.test.ts',
      'app/**/*.test.ts',
    ],
    setupFiles: ['test/support/setup-env.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two cores on CI: spawning servers in many files at once only adds contention.
    maxWorkers: process.env.CI ? 2 : undefined,
  },
});
