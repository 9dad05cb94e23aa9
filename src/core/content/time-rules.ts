import type { Event } from '../schemas.ts';
import type { ContentProblem } from './validate-event-files.ts';

/**
 * The content rules about an event's two times, in one place: the validation of the event tree
 * (validate-event-files.ts), `npm run event:add`'s prompts (src/core/contributor/answers.ts) and the worker's
 * watcher (src/core/watch/run.ts, which must not carry the file reader) all ask here, so a time the tree would
 * refuse is refused wherever it is first typed or read. Times are UTC ISO 8601 strings, `now` is the caller's clock.
 */

export const announcedAtProblem = (announcedAt: string, now: Date): string | undefined =>
  Date.parse(announcedAt) > now.getTime() ? `is in the future (now is ${now.toISOString()})` : undefined;

export const effectiveAtProblem = (effectiveAt: string, announcedAt: string): string | undefined =>
  Date.parse(effectiveAt) <= Date.parse(announcedAt) ? 'must be later than announcedAt' : undefined;

/** An event's time problems as the validation reports them: file, field, what is wrong and the fix. */
export function timeProblems(file: string, event: Event, now: Date): ContentProblem[] {
  const problems: ContentProblem[] = [];
  const announced = announcedAtProblem(event.announcedAt, now);
  if (announced !== undefined) {
    problems.push({
      file,
      field: 'announcedAt',
      message: announced,
      fix: 'the time the post was published, in UTC; check the time zone it was converted from',
    });
  }
  const effective = event.effectiveAt === null ? undefined : effectiveAtProblem(event.effectiveAt, event.announcedAt);
  if (effective !== undefined) {
    problems.push({
      file,
      field: 'effectiveAt',
      message: effective,
      fix: 'set effectiveAt only when the post names a later effective time, else null',
    });
  }
  return problems;
}
