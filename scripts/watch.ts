// `npm run watch`: proposes new posts of the watched sources as draft events (see CONTRIBUTING.md).
// Exit codes: 0 when every watched source was read (or there is nothing to watch: only the sample sources
// under `.example` are configured), 1 when a source failed (the others are processed all the same) or a
// config file is wrong (the message names the file and the key).
import { parseArgs } from 'node:util';
import { eventsDirectory } from '../src/node/events-directory.ts';
import { writeSourceReport } from '../src/node/source-report.ts';
import { WATCH_RULES_FILE, WATCH_SOURCES_FILE, WatchConfigError } from '../src/node/watch/config-file.ts';
import { runWatch } from '../src/node/watch/run-watch.ts';

const { values } = parseArgs({
  options: {
    sources: { type: 'string', default: WATCH_SOURCES_FILE },
    rules: { type: 'string', default: WATCH_RULES_FILE },
    state: { type: 'string', default: 'content/watch/state.json' },
    'timeout-ms': { type: 'string', default: '10000' },
    'max-bytes': { type: 'string', default: String(2 * 1024 * 1024) },
  },
});

let report: Awaited<ReturnType<typeof runWatch>>;
try {
  report = await runWatch({
    eventsRoot: eventsDirectory(),
    sourcesFile: values.sources,
    rulesFile: values.rules,
    stateFile: values.state,
    timeoutMs: Number(values['timeout-ms']),
    maxBytes: Number(values['max-bytes']),
  });
} catch (error) {
  if (!(error instanceof WatchConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}
if (report.watchedSources === 0) {
  console.log(
    `Nothing to watch: ${values.sources} lists no real source${report.sampleSources > 0 ? ` (only the ${report.sampleSources} sample feed(s) under .example, which are never fetched)` : ''}. Add the official feeds to watch.`,
  );
  process.exit(0);
}
for (const file of report.drafts) console.log(`draft: ${file}`);
for (const line of report.skipped) console.log(`skipped: ${line}`);
for (const line of report.failures) console.error(`failed: ${line}`);
console.log(
  `${report.drafts.length} new draft(s), ${report.skipped.length} skipped post(s), ${report.failures.length} failed source(s) of ${report.watchedSources} watched.`,
);
// Source health: the run's report to the KV the site reads (SOURCE_REPORT_TARGET: local, remote or off).
let reportWritten = true;
try {
  await writeSourceReport(report.sources);
} catch (error) {
  console.error(`failed: the source report was not written: ${(error as Error).message}`);
  reportWritten = false;
}
process.exit(report.failures.length > 0 || !reportWritten ? 1 : 0);
