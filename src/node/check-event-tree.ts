import {
  formatContentProblem,
  validateEventFiles,
  type ContentValidation,
} from '../core/content/validate-event-files.ts';
import { readEventTree } from './event-files.ts';

export interface EventTreeReport extends ContentValidation {
  /** One line per problem, naming the file and the field. */
  lines: string[];
}

/**
 * Reads and validates a whole event tree; shared by `npm run validate`, the build's integration and its
 * content loader. `events` holds only files without any problem. Throws `EventsFolderMissing`.
 */
export async function checkEventTree(root: string, now = new Date()): Promise<EventTreeReport> {
  const tree = await readEventTree(root);
  const validation = validateEventFiles(tree.files, now);
  const problems = [...tree.problems, ...validation.problems].sort((a, b) =>
    a.file < b.file ? -1 : a.file > b.file ? 1 : 0,
  );
  return { events: validation.events, problems, lines: problems.map((problem) => formatContentProblem(problem, root)) };
}
