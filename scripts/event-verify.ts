// `npm run event:verify <id>`: marks a draft as checked by a person (verified: true), after the same checks.
import { formatContentProblem } from '../src/core/content/validate-event-files.ts';
import { eventsDirectory } from '../src/node/events-directory.ts';
import { verifyEvent } from '../src/node/event-store.ts';

const id = process.argv[2];
if (!id) {
  console.error('Usage: npm run event:verify <id>');
  process.exit(2);
}
const root = eventsDirectory();
const result = await verifyEvent(root, id);
if (!result.ok) {
  for (const problem of result.problems) console.error(formatContentProblem(problem, root));
  process.exit(1);
}
console.log(`Verified: ${root}/${result.file}`);
