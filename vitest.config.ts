import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // Node resolves `graphql` to its CommonJS build for everyone; Vite would
    // pick the .mjs build for our own (transformed) files, giving two copies
    // of graphql in one process. Pin the one Node uses.
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    include: ['api/test/**/*.test.ts'],
    globalSetup: ['api/test/global-setup.ts'],
    pool: 'forks',
    // Two cores: two test files at a time, each with its own database.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
