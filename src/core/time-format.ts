import { UTCDate } from '@date-fns/utc';
import { format } from 'date-fns/format';

/** How an instant is written for people, whatever the zone of the machine that renders it. */

/** `5 Mar 2026`: the day of an instant in UTC. */
export const utcDay = (iso: string): string => format(new UTCDate(iso), 'd MMM yyyy');

/** `2026-03-05 17:04 UTC`, from any ISO 8601 instant (UTC or with an offset). */
export const utcMinute = (iso: string): string => `${new Date(iso).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** A span of minutes in its largest whole unit: under 2 hours in minutes, under 2 days in hours, else days. */
export function wholeDuration(minutes: number): { amount: number; unit: 'minutes' | 'hours' | 'days' } {
  if (minutes < 120) return { amount: minutes, unit: 'minutes' };
  if (minutes < 48 * 60) return { amount: Math.floor(minutes / 60), unit: 'hours' };
  return { amount: Math.floor(minutes / (24 * 60)), unit: 'days' };
}
