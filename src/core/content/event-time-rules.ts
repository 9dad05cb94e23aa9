import { announcedMs, effectiveMs } from '../ordering.ts';
import type { Event } from '../schemas.ts';
import type { ContentProblem } from './validate-event-files.ts';

/**
 * The content rules about an event's times (validate-event-files.ts checks them for every file): not announced
 * after `now`, and an effective time later than the announcement. On their own so that the worker's watcher
 * checks a draft with them without carrying the file reader (its JSON parser that finds duplicate keys).
 */
export function timeProblems(file: string, event: Event, now: Date): ContentProblem[] {
  const problems: ContentProblem[] = [];
  if (announcedMs(event) > now.getTime()) {
    problems.push({
      file,
      field: 'announcedAt',
      message: `is in the future (now is ${now.toISOString()})`,
      fix: 'the time the post was published, in UTC; check the time zone it was converted from',
    });
  }
  if (event.effectiveAt !== null && effectiveMs(event) <= announcedMs(event)) {
    problems.push({
      file,
      field: 'effectiveAt',
      message: 'must be later than announcedAt',
      fix: 'set effectiveAt only when the post names a later effective time, else null',
    });
  }
  return problems;
}
