import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: { name: 'core', include: ['src/**/*.test.ts', 'functions/**/*.test.ts'], environment: 'node' },
      },
      {
        test: {
          name: 'served',
          include: ['tests/**/*.test.ts'],
          globalSetup: ['tests/support/served-build.ts'],
          // The files share one build and one local server; a failing build test must not race them.
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
