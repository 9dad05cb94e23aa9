// `npm run validate`: checks every event file and lists every problem, exit code 1 if there is any.
import { checkEventTree } from '../src/node/check-event-tree.ts';
import { InvalidDatasetMarker, readDatasetMarker } from '../src/node/dataset-marker.ts';
import { EventsFolderMissing } from '../src/node/event-files.ts';
import { eventsDirectory } from '../src/node/events-directory.ts';

const root = eventsDirectory();
try {
  const report = await checkEventTree(root);
  if (report.lines.length > 0) {
    console.error(report.lines.join('\n'));
    console.error(`\n${report.problems.length} problem(s) in ${root}; nothing can be published until they are fixed.`);
    process.exit(1);
  }
  const { sample } = await readDatasetMarker(root);
  const drafts = report.events.filter((event) => !event.verified).length;
  const kind = sample ? ', marked as the fictional sample set' : '';
  console.log(
    `${root}: ${report.events.length} valid event files (${report.events.length - drafts} published, ${drafts} drafts${kind}).`,
  );
} catch (error) {
  // A missing folder or a bad marker is one line to read, not a stack trace.
  if (!(error instanceof EventsFolderMissing || error instanceof InvalidDatasetMarker)) throw error;
  console.error(error.message);
  process.exit(1);
}
