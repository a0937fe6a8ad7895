import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{apps,libs,tests,scripts}/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    globalSetup: ['libs/testing/src/globalSetup.ts'],
    testTimeout: 30_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // Two cores run the servers, the brokers and the tests: keep parallelism modest.
    maxWorkers: 3,
    reporters: ['default'],
  },
});
