// `npm run watch`: proposes new posts of the watched sources as draft events (see docs/contributing in
// CONTRIBUTING.md). Exit code 1 when any source failed; the others are processed all the same.
import { parseArgs } from 'node:util';
import { eventsDirectory } from '../src/node/events-directory.ts';
import { writeSourceReport } from '../src/node/source-report.ts';
import { runWatch } from '../src/node/watch/run-watch.ts';

const { values } = parseArgs({
  options: {
    sources: { type: 'string', default: 'content/watch/sources.json' },
    rules: { type: 'string', default: 'content/watch/classification.json' },
    state: { type: 'string', default: 'content/watch/state.json' },
    'timeout-ms': { type: 'string', default: '10000' },
    'max-bytes': { type: 'string', default: String(2 * 1024 * 1024) },
  },
});

const report = await runWatch({
  eventsRoot: eventsDirectory(),
  sourcesFile: values.sources,
  rulesFile: values.rules,
  stateFile: values.state,
  timeoutMs: Number(values['timeout-ms']),
  maxBytes: Number(values['max-bytes']),
});
for (const file of report.drafts) console.log(`draft: ${file}`);
for (const line of report.skipped) console.log(`skipped: ${line}`);
for (const line of report.failures) console.error(`failed: ${line}`);
console.log(`${report.drafts.length} new draft(s), ${report.failures.length} failed source(s).`);
// Source health: the run's report to the KV the site reads (SOURCE_REPORT_TARGET: local, remote or off).
let reportWritten = true;
try {
  await writeSourceReport(report.sources);
} catch (error) {
  console.error(`failed: the source report was not written: ${(error as Error).message}`);
  reportWritten = false;
}
process.exit(report.failures.length > 0 || !reportWritten ? 1 : 0);
