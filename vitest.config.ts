import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{domain,infra,projections,commands,workers,command-api,web}/src/**/*.test.{ts,tsx}', 'e2e/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // adapters share Redis and ports: keep files in separate forks but not too many at once on 2 cores
    pool: 'forks',
    maxWorkers: 2,
  },
});
