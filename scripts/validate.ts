// `npm run validate`: checks every event file and lists every problem, exit code 1 if there is any.
import { eventsDirectory } from '../src/node/events-directory.ts';
import { checkEventTree } from '../src/node/check-event-tree.ts';

const root = eventsDirectory();
const report = await checkEventTree(root);
if (report.lines.length > 0) {
  console.error(report.lines.join('\n'));
  console.error(`\n${report.problems.length} problem(s) in ${root}; nothing can be published until they are fixed.`);
  process.exit(1);
}
const drafts = report.events.filter((event) => !event.verified).length;
console.log(
  `${root}: ${report.events.length} valid event files (${report.events.length - drafts} published, ${drafts} drafts).`,
);
