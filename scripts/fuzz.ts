// `npm run fuzz`: the fuzz tests (over HTTP, and the edge routes in-process) with many more requests per endpoint
// (FUZZ_RUNS, default 5000), MCP's JSON-RPC batches among them (sizes 1, 19, 20, 21, 22 and 100, nested, mixed with
// messages that are not ones, under a protocol without batches: tests/support/hostile-requests.ts); the hostile
// event files against the content rules with many more files per kind; and the spellings of outbound addresses
// (push endpoints: one stored form each, every forbidden change refused), so that a change to the policy or to the
// URL parser cannot split one address in two.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const vitest = path.resolve(import.meta.dirname, '../node_modules/vitest/vitest.mjs');
const run = spawnSync(
  process.execPath,
  [
    vitest,
    'run',
    '--project',
    'served',
    'tests/fuzz.http.test.ts',
    'src/core/api/query.fuzz.test.ts',
    'functions/fuzz.test.ts',
    'src/core/content/validate-event-files.fuzz.test.ts',
    'src/core/outbound/address.fuzz.test.ts',
    '--project',
    'core',
  ],
  {
    stdio: 'inherit',
    env: { FUZZ_RUNS: '5000', ...process.env },
  },
);
process.exit(run.status ?? 1);
