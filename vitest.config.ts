import { defineConfig } from 'vitest/config';

/**
 * Three projects, by what a test needs:
 * - `core`: the pure core and every edge route in-process (no build, no server), beside the code;
 * - `node`: the commands and the repository's own files (tests/node): Node only, no site build;
 * - `served`: what only the real runtime shows: one build served by workerd, Chromium, builds of their own.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: { name: 'core', include: ['src/**/*.test.ts', 'functions/**/*.test.ts'], environment: 'node' },
      },
      {
        test: { name: 'node', include: ['tests/node/**/*.test.ts'], environment: 'node', testTimeout: 60_000 },
      },
      {
        test: {
          name: 'served',
          include: ['tests/*.test.ts'],
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
