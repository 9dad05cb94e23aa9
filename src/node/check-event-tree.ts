import {
  formatContentProblem,
  validateEventFiles,
  type ContentValidation,
} from '../core/content/validate-event-files.ts';
import { readEventFiles } from './event-files.ts';

export interface EventTreeReport extends ContentValidation {
  /** One line per problem, naming the file and the field. */
  lines: string[];
}

/** Reads and validates a whole event tree; shared by `npm run validate` and the build. */
export async function checkEventTree(root: string, now = new Date()): Promise<EventTreeReport> {
  const validation = validateEventFiles(await readEventFiles(root), now);
  return { ...validation, lines: validation.problems.map((problem) => formatContentProblem(problem, root)) };
}
