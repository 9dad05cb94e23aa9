import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The order files start in. First the ones that take longest: the files that run Astro (each builds a copy of
 * the project beside the others: scripts/lib/project-copy.ts, or runs `npm run dev`), the longest Chromium file,
 * the one that waits 40 s for a reset's time to come, and the one that starts servers one after the other. Then
 * the core and node files, then the other served files, short ones that fill the end evenly. Named here rather
 * than left to Vitest's timings, which change from run to run, and which a fresh clone (CI) does not have (it
 * would order by file size).
 */
const START_FIRST = [
  'tests/dev-server.test.ts',
  'tests/real-data.test.ts',
  'tests/output-safety.test.ts',
  'tests/website.browser.test.ts',
  'tests/push-dispatch.test.ts',
  'tests/data-source-fault.test.ts',
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const first = START_FIRST.findIndex((name) => file.moduleId.endsWith(name));
      if (first >= 0) return first;
      return file.project.name === 'served' ? START_FIRST.length + 1 : START_FIRST.length;
    };
    // Array.prototype.sort is stable: Vitest's own order holds inside each rank.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

/**
 * The in-process tests at the real clock and at clocks months behind and ahead (tests/support/shifted-clock.ts):
 * a fixture or expectation that goes stale as the calendar moves fails today, not on the day it expires.
 */
const CLOCK_SHIFTS_DAYS = [0, -150, 150];
/**
 * Run at the real clock only: the fuzzers (random input, their assertions hold at any clock: no 500, no crash) and
 * the file that reads the report through workerd, whose clock a process of Node cannot move (it hands workerd the
 * test's clock instead). Together two fifths of the project's time.
 */
const REAL_CLOCK_ONLY = [
  'functions/fuzz.test.ts',
  'src/core/api/query.fuzz.test.ts',
  'src/core/outbound/address.fuzz.test.ts',
  'src/node/source-report.test.ts',
];

const coreAt = (days: number) => ({
  test: {
    name: days === 0 ? 'core' : `core@${days > 0 ? '+' : ''}${days}d`,
    include: ['src/**/*.test.ts', 'functions/**/*.test.ts'],
    exclude: days === 0 ? [] : REAL_CLOCK_ONLY,
    environment: 'node' as const,
    // Pure code: the files share one module graph per worker instead of importing it again per file
    // (that import was four fifths of the project's time). A test must not depend on another's state.
    isolate: false,
    env: { TEST_CLOCK_SHIFT_DAYS: String(days) },
    setupFiles: ['tests/support/shifted-clock.ts'],
  },
});

/**
 * Three kinds of project, by what a test needs:
 * - `core`: the pure core and every edge route in-process (no build, no server), beside the code, at three clocks;
 * - `node`: the commands and the repository's own files (tests/node): Node only, no site build;
 * - `served`: what only the real runtime shows: one build served by workerd, Chromium, builds of their own.
 * Around them all, tests/support/checkout-untouched.ts fails the run if a test wrote the checkout's own build or
 * local state.
 */
export default defineConfig({
  test: {
    globalSetup: ['tests/support/checkout-untouched.ts'],
    // The served files often wait (on Astro, workerd, Chromium, the clock): more workers than cores keep both
    // cores busy. Vitest's default, one worker fewer than the cores, is one worker on two cores. Four: with the
    // builds side by side the run is bound by CPU, and one run after another on the same machine took 144 s with
    // three, 128 s with four and 149 s with five (more processes at once cost more CPU for the same work).
    maxWorkers: 4,
    sequence: { sequencer: LongestFirst },
    projects: [
      ...CLOCK_SHIFTS_DAYS.map(coreAt),
      {
        test: { name: 'node', include: ['tests/node/**/*.test.ts'], environment: 'node', testTimeout: 60_000 },
      },
      {
        test: {
          name: 'served',
          include: ['tests/*.test.ts'],
          globalSetup: ['tests/support/served-build.ts'],
          // The files share one module graph per worker, as in core: each importing Playwright, the MCP SDK and
          // the parsers again was about a twentieth of the run.
          isolate: false,
          // A request wrangler dev's own local proxy dropped before the worker saw it is sent once more.
          setupFiles: ['tests/support/local-proxy-retry.ts'],
          // The files share one build and one local server (tests/support/served-build.ts) and run beside each
          // other and the other projects, mostly waiting on workerd, Astro and Chromium; the files that build
          // build copies of the project (scripts/lib/project-copy.ts).
          testTimeout: 60_000,
          hookTimeout: 180_000,
          // expect.poll gives up after 1 s by default: too short for a service worker or a page's script on a
          // loaded machine (a push's notification once took longer). A wait, not a timing assertion.
          expect: { poll: { timeout: 15_000 } },
        },
      },
    ],
  },
});
