import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{domain,infra,projections,workers,command-api,server,web}/src/**/*.test.{ts,tsx}', 'e2e/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    environment: 'node',
    globalSetup: ['./vitest.temp-dir.ts'],
    setupFiles: ['./vitest.temp-dir-per-file.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // vitest's default (1 s) is shorter than a page's first render on a busy 2-core CI machine; a poll only
    // waits longer when it would otherwise fail, so a generous default costs nothing on a passing run
    expect: { poll: { timeout: 10_000 } },
    // adapters share Redis and ports: keep files in separate forks but not too many at once on 2 cores
    pool: 'forks',
    maxWorkers: 2,
  },
});
