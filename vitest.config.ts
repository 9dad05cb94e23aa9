import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The served files first (the longest first, Vitest's own order inside a project): their builds, which take
 * turns, are the longest chain of the run; the core and node files fill the workers around them. Vitest's own
 * order runs the projects by name, which left the served chain to start last.
 */
class ServedFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const served = (file: TestSpecification) => file.project.name === 'served';
    return [...sorted.filter(served), ...sorted.filter((file) => !served(file))];
  }
}

/**
 * Three projects, by what a test needs:
 * - `core`: the pure core and every edge route in-process (no build, no server), beside the code;
 * - `node`: the commands and the repository's own files (tests/node): Node only, no site build;
 * - `served`: what only the real runtime shows: one build served by workerd, Chromium, builds of their own.
 */
export default defineConfig({
  test: {
    // The served files mostly wait (on the Astro turn, workerd, Chromium, the clock): more workers than cores keep
    // both cores busy. Vitest's default, one worker fewer than the cores, is one worker on two cores. Seven were
    // slower than four: the extra workers' CPU slowed the chain of builds down.
    maxWorkers: 4,
    sequence: { sequencer: ServedFirst },
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
          // A request wrangler dev's own local proxy dropped before the worker saw it is sent once more.
          setupFiles: ['tests/support/local-proxy-retry.ts'],
          // The files share one build and one local server (tests/support/served-build.ts) and run beside each
          // other and the other projects, mostly waiting on workerd, Astro and Chromium; the files that run
          // Astro themselves take turns (tests/support/astro-turn.ts).
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
