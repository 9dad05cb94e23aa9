/**
 * The content rules about an event's two times, in one place: the validation of the event tree
 * (validate-event-files.ts) and `npm run event:add`'s prompts (src/core/contributor/answers.ts) both ask here,
 * so a time the tree would refuse is refused at the prompt that asks for it. Each says what is wrong, or
 * undefined; times are UTC ISO 8601 strings, `now` is the caller's clock.
 */

export const announcedAtProblem = (announcedAt: string, now: Date): string | undefined =>
  Date.parse(announcedAt) > now.getTime() ? `is in the future (now is ${now.toISOString()})` : undefined;

export const effectiveAtProblem = (effectiveAt: string, announcedAt: string): string | undefined =>
  Date.parse(effectiveAt) <= Date.parse(announcedAt) ? 'must be later than announcedAt' : undefined;
