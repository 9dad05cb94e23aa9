import { defineConfig } from 'vitest/config';

/**
 * Three projects, by what a test needs:
 * - `core`: the pure core and every edge route in-process (no build, no server), beside the code;
 * - `node`: the commands and the repository's own files (tests/node): Node only, no site build;
 * - `served`: what only the real runtime shows: one build served by workerd, Chromium, builds of their own.
 */
export default defineConfig({
  test: {
    // The served files run one at a time and mostly wait (on builds, workerd, Chromium): the core and node
    // projects run beside them. Vitest's default, one worker fewer than the cores, is one worker on two cores.
    maxWorkers: 3,
    projects: [
      {
        test: {
          name: 'core',
          include: ['src/**/*.test.ts', 'functions/**/*.test.ts'],
          environment: 'node',
          // Pure code: the files share one module graph per worker instead of importing it again per file
          // (that import was four fifths of the project's time). A test must not depend on another's state.
          isolate: false,
        },
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
