/** How an instant is written for people, whatever the zone of the machine that renders it. */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * `5 Mar 2026`: the day of an instant in UTC, in English (each language's own day form is `formats.day` of its words).
 * Written here rather than with a date library: a library's formatter and its locale tables were loaded by every
 * new isolate for this one pattern (docs/performance.md, "The cold start").
 */
export function utcDay(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) throw new RangeError(`not an instant: ${iso}`);
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
}

/** `2026-03-05 17:04 UTC`, from any ISO 8601 instant (UTC or with an offset). */
export const utcMinute = (iso: string): string => `${new Date(iso).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** A span of minutes in its largest whole unit: under 2 hours in minutes, under 2 days in hours, else days. */
export function wholeDuration(minutes: number): { amount: number; unit: 'minutes' | 'hours' | 'days' } {
  if (minutes < 120) return { amount: minutes, unit: 'minutes' };
  if (minutes < 48 * 60) return { amount: Math.floor(minutes / 60), unit: 'hours' };
  return { amount: Math.floor(minutes / (24 * 60)), unit: 'days' };
}
