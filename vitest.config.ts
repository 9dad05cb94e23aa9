import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { scaled } from './scripts/lib/load-scaled.ts';
import { clockReadingTests } from './tests/support/clock-readers.ts';

/**
 * The order files start in, in the group of the served, builds and node files (the in-process files run after them
 * in a group of their own: IN_PROCESS below). First the files that run Astro of their own (each in a copy of the
 * project beside the others: scripts/lib/project-copy.ts); then the served files that mostly wait on the clock
 * (WAITS_FIRST); then the node files, which run while the shared served build is made in the background
 * (tests/support/served-build.ts); then the longest files that need that build (the page checks in Chromium, the
 * push end to end, the servers of the data-source faults); then the other served files, short ones that fill the end
 * evenly. Named here rather than left to Vitest's timings, which change from run to run, and which a fresh clone (CI)
 * does not have (it would order by file size).
 */
const OWN_BUILDS_FIRST = [
  'tests/real-data.test.ts',
  'tests/output-safety.test.ts',
  'tests/dev-server.test.ts',
  'tests/validation-gate.test.ts',
];
/**
 * Served files that mostly wait on the wall clock (a database locked for over a minute; a report older than five
 * minutes; pages cached for the rest of their minute): they start with the builds, wait for the shared build, and
 * then wait beside the other files' work instead of at the end of the run (page-cache, ranked with the short served
 * files, ran last and alone for its last half minute).
 */
const WAITS_FIRST = ['tests/delivery-faults.test.ts', 'tests/source-health.test.ts', 'tests/page-cache.test.ts'];
const SERVED_FIRST = [
  'tests/website.browser.test.ts',
  'tests/phone-board.browser.test.ts',
  'tests/push-dispatch.test.ts',
  'tests/chat-webhooks.test.ts',
  'tests/websub.test.ts',
  'tests/data-source-fault.test.ts',
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const position = (list: readonly string[], file: TestSpecification) =>
      list.findIndex((name) => file.moduleId.endsWith(name));
    const rank = (file: TestSpecification) => {
      const ownBuild = position(OWN_BUILDS_FIRST, file);
      if (ownBuild >= 0) return ownBuild;
      const waits = position(WAITS_FIRST, file);
      if (waits >= 0) return OWN_BUILDS_FIRST.length + waits;
      const first = OWN_BUILDS_FIRST.length + WAITS_FIRST.length;
      if (file.project.name !== 'served' && file.project.name !== 'builds') return first;
      const served = position(SERVED_FIRST, file);
      return first + 1 + (served >= 0 ? served : SERVED_FIRST.length);
    };
    // Array.prototype.sort is stable: Vitest's own order holds inside each rank.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

/**
 * The in-process tests at the real clock and at clocks months behind and ahead (tests/support/shifted-clock.ts):
 * a fixture or expectation that goes stale as the calendar moves fails today, not on the day it expires. At the
 * moved clocks run only the files that read the clock, themselves or through what they import
 * (tests/support/clock-readers.ts finds them in the code: `node tests/support/clock-readers.ts` lists them and why);
 * a file that never reads it gives the same verdict at any clock.
 */
const CLOCK_SHIFTS_DAYS = [0, -150, 150];
const CLOCK_READING_TESTS = [...clockReadingTests(import.meta.dirname).keys()];
/**
 * Run at the real clock only: the fuzzers (random input, their assertions hold at any clock: no 500, no crash), the
 * file that reads the report through workerd (it hands workerd the test's clock instead), and the push files below.
 */
const REAL_CLOCK_ONLY = [
  // The delivery and watcher files with a real local D1: they hand the code under test its clock (or only store the
  // time), and their database runs in workerd, whose clock the shift does not move; the D1 start is most of their cost.
  'src/server/delivery/build-dispatch.test.ts',
  'src/server/delivery/wing-dispatch.test.ts',
  'src/server/delivery/wing-retries.test.ts',
  'src/server/delivery/wing-window.test.ts',
  'src/server/delivery/wing-subscribers.test.ts',
  'src/server/delivery/wing-recovery.test.ts',
  'src/server/delivery/wing-pages.test.ts',
  'src/server/delivery/wing-websub.test.ts',
  'functions/api/subscriber-writes.test.ts',
  'functions/api/push-store.test.ts',
  'src/server/watch/cron.test.ts',
  'src/server/journal/git-commit.test.ts',
  // The journal's and the review page's routes over a real local D1: every request and every journal write is handed
  // the test's written-out clock (NOW), so the real clock reaches only defaults they never use, and their database
  // runs in workerd, which the shift does not move. At the moved clocks they were a fifth of the core project's time.
  'functions/api/review.test.ts',
  'functions/api/journal-built-outputs.test.ts',
  'src/server/journal/journal-outputs.test.ts',
  // The hooks' and the chat webhooks' write paths over a real local D1: their requests carry NOW or only store the
  // time they were made, and what reads the clock on both sides of an assertion (a signature's timestamp and the
  // reference library's check of it) reads the same one, at any clock; with them, no file at the moved clocks
  // starts a real D1.
  'functions/api/hooks.test.ts',
  'functions/api/webhooks-connected.test.ts',
  // The review message's confirm link over a real local D1: the run and the token's expiry are the test's NOW.
  'src/server/watch/review-confirm-link.test.ts',
  'functions/fuzz.test.ts',
  'src/core/api/query.fuzz.test.ts',
  'src/core/content/validate-event-files.fuzz.test.ts',
  'src/core/outbound/address.fuzz.test.ts',
  'src/node/source-report.test.ts',
];

/** Every project's: the folders a test file made with tempFolder (tests/support/temp-folders.ts) go after its last hook. */
const TEMP_FOLDERS_REMOVED = 'tests/support/temp-folders-removed.ts';

/**
 * The in-process files (the core projects at every clock) run in two workers, after everything else in four.
 * These files share one module graph per worker (`isolate: false`) and one real D1 per worker (tests/support/state-d1.ts),
 * so every worker more imports the graph and starts a D1 again: the core project took 111 s of CPU in four workers and
 * 91 s in two, the two moved clocks 21 s in four and 9 s in one (alone, one after another). They keep both cores
 * busy by themselves to the end of the run, while the served files, which mostly wait on workerd, Astro, Chromium and
 * the clock, need more workers than cores. Vitest runs projects with other worker counts in groups one after another
 * (`sequence.groupOrder`).
 */
const IN_PROCESS = { maxWorkers: 2, groupOrder: 1 };
const OUT_OF_PROCESS = { maxWorkers: 4, groupOrder: 0 };

const coreAt = (days: number) => ({
  test: {
    name: days === 0 ? 'core' : `core@${days > 0 ? '+' : ''}${days}d`,
    include: days === 0 ? ['src/**/*.test.ts', 'functions/**/*.test.ts'] : CLOCK_READING_TESTS,
    exclude: days === 0 ? [] : REAL_CLOCK_ONLY,
    environment: 'node' as const,
    // Pure code: the files share one module graph per worker instead of importing it again per file
    // (that import was four fifths of the project's time). A test must not depend on another's state.
    isolate: false,
    env: { TEST_CLOCK_SHIFT_DAYS: String(days) },
    // The hang guards are scaled by the machine's load when each file starts (the first setup file), not when the run
    // does: these files run last.
    setupFiles: [
      'tests/support/limits-scaled-per-file.ts',
      'tests/support/shifted-clock.ts',
      'tests/support/fresh-isolate.ts',
      TEMP_FOLDERS_REMOVED,
    ],
    // Two workers, in a group of their own that runs last (IN_PROCESS above).
    maxWorkers: IN_PROCESS.maxWorkers,
    sequence: { groupOrder: IN_PROCESS.groupOrder },
  },
});

/** The served files that build, serve or run something of their own and never the shared build: they start at once. */
const OWN_BUILD_FILES = [
  'tests/dev-server.test.ts',
  'tests/output-safety.test.ts',
  'tests/real-data.test.ts',
  'tests/start-command.test.ts',
  'tests/validation-gate.test.ts',
];

/** What the served files need, whether they use the shared build (project `served`) or their own (`builds`). */
const SERVED_OPTIONS = {
  sequence: { groupOrder: OUT_OF_PROCESS.groupOrder },
  // The files share one module graph per worker, as in core: each importing Playwright, the MCP SDK and the
  // parsers again was about a twentieth of the run.
  isolate: false,
  // They run beside each other and the other projects, mostly waiting on workerd, Astro and Chromium; the files
  // that build build copies of the project (scripts/lib/project-copy.ts).
  // Hang guards, scaled by the machine's load when the run starts (scripts/lib/load-scaled.ts); the waits inside a
  // test (a server's start, a page, a poll) scale with the load at their own moment.
  testTimeout: scaled(60_000),
  hookTimeout: scaled(180_000),
  // expect.poll gives up after 1 s by default: too short for a service worker or a page's script on a loaded
  // machine. A wait, not a timing assertion.
  expect: { poll: { timeout: scaled(15_000) } },
};

/**
 * Four kinds of project, by what a test needs:
 * - `core`: the pure core and every edge route in-process (no build, no server), beside the code, at three clocks;
 * - `node`: the commands and the repository's own files (tests/node): Node only, no site build;
 * - `served`: what only the real runtime shows: one build served by workerd, Chromium;
 * - `builds`: what needs a build or an Astro run of its own (other content, refused builds, `npm start`/`dev`).
 * Around them all, tests/support/checkout-untouched.ts fails the run if a test wrote the checkout's own build or
 * local state.
 */
export default defineConfig({
  test: {
    globalSetup: ['tests/support/checkout-untouched.ts'],
    // The served files often wait (on Astro, workerd, Chromium, the clock): more workers than cores keep both
    // cores busy. Vitest's default, one worker fewer than the cores, is one worker on two cores. Four: with the
    // builds side by side the run is bound by CPU, and one run after another on the same machine took 144 s with
    // three, 128 s with four and 149 s with five (more processes at once cost more CPU for the same work). The
    // in-process files run in two of their own (IN_PROCESS).
    maxWorkers: OUT_OF_PROCESS.maxWorkers,
    sequence: { sequencer: LongestFirst },
    // wrangler's local runtime, started in the test's process (scripts/lib/local-server.ts), prints a line of
    // information for each server's asset rules and each queue batch, whatever its log level: not the tests' output.
    onConsoleLog: (log) => !log.startsWith('[wrangler:info]'),
    projects: [
      ...CLOCK_SHIFTS_DAYS.map(coreAt),
      {
        test: {
          name: 'node',
          include: ['tests/node/**/*.test.ts'],
          sequence: { groupOrder: OUT_OF_PROCESS.groupOrder },
          environment: 'node',
          setupFiles: [TEMP_FOLDERS_REMOVED],
          testTimeout: scaled(60_000),
          hookTimeout: scaled(60_000),
        },
      },
      {
        test: {
          ...SERVED_OPTIONS,
          name: 'served',
          include: ['tests/*.test.ts'],
          exclude: OWN_BUILD_FILES,
          globalSetup: ['tests/support/served-build.ts'],
          // Each file waits for the shared build, made while the core and node files run.
          setupFiles: ['tests/support/served-ready.ts', TEMP_FOLDERS_REMOVED],
        },
      },
      {
        test: {
          ...SERVED_OPTIONS,
          name: 'builds',
          include: OWN_BUILD_FILES,
          // Each test runs Astro or a command of its own, tens of seconds on an idle machine. These files start
          // first, when the load the limit is scaled by (read as the run starts) has not yet risen with the run
          // itself: 60 s raced a failing build on a machine whose load rose to 17 (start-command, 60.4 s).
          testTimeout: scaled(180_000),
          setupFiles: [TEMP_FOLDERS_REMOVED],
        },
      },
    ],
  },
});
