import { MEDIAN_BASIS_RESETS } from '../cadence.ts';
import type { Provider } from '../enums.ts';
import { PROVIDER_LABELS } from '../i18n/labels.ts';
import { effectiveMs } from '../ordering.ts';
import type { Event, StatusResponse } from '../schemas.ts';
import { eventPageUrl, SERVICE_MACHINE_NAME, SERVICE_NAME } from '../site.ts';
import { publishedCalendar, serializeCalendar, utcBasic, type IcalComponent } from './ical/serialize.ts';
import { eventTitle, utcMinute } from './labels.ts';

/**
 * `/calendar.ics`: every published announcement as an event a calendar app can subscribe to, and each
 * provider's current cadence estimate as an event clearly labelled as one.
 */

export const ANNOUNCEMENTS_PRODID = `-//${SERVICE_NAME}//Announcements//EN`;

/**
 * A subscribed calendar holds the newest 1,000 announcements: calendar apps slow down on huge feeds, and a
 * static file must stay under the platform's 25 MiB per asset however long the history grows.
 */
export const CALENDAR_EVENT_LIMIT = 1_000;

export interface AnnouncementCalendarInput {
  /** Published events, newest first. */
  events: readonly Event[];
  /** The board the estimates come from, computed at `board.updatedAt`. */
  board: StatusResponse;
  provider: Provider | undefined;
  baseUrl: string;
}

const stamp = (board: StatusResponse) => utcBasic(Date.parse(board.updatedAt));

function announcementEvent(event: Event, input: AnnouncementCalendarInput, host: string): IcalComponent {
  return {
    name: 'VEVENT',
    properties: [
      { name: 'UID', text: `${SERVICE_MACHINE_NAME}-event-${event.id}@${host}` },
      { name: 'DTSTAMP', value: stamp(input.board) },
      { name: 'DTSTART', value: utcBasic(effectiveMs(event)) },
      { name: 'DURATION', value: 'PT15M' },
      { name: 'SUMMARY', text: eventTitle(event) },
      { name: 'DESCRIPTION', text: `${event.summary}\n\nOriginal post by ${event.sourceAccount}: ${event.sourceUrl}` },
      { name: 'URL', value: eventPageUrl(input.baseUrl, event) },
      { name: 'CATEGORIES', text: event.provider },
      { name: 'TRANSP', value: 'TRANSPARENT' },
    ],
  };
}

function estimateEvents(input: AnnouncementCalendarInput, host: string): IcalComponent[] {
  return input.board.providers
    .filter((row) => row.nextEstimate !== null && (input.provider === undefined || row.provider === input.provider))
    .map((row) => {
      const label = PROVIDER_LABELS.en[row.provider];
      return {
        name: 'VEVENT',
        properties: [
          { name: 'UID', text: `${SERVICE_MACHINE_NAME}-estimate-${row.provider}@${host}` },
          { name: 'DTSTAMP', value: stamp(input.board) },
          { name: 'DTSTART', value: utcBasic(Date.parse(row.nextEstimate!)) },
          { name: 'DURATION', value: 'PT15M' },
          { name: 'SUMMARY', text: `${label}: next reset? (cadence estimate, not a schedule)` },
          {
            name: 'DESCRIPTION',
            text: `A cadence estimate, not a vendor schedule: the last reset plus the median gap of the last ${MEDIAN_BASIS_RESETS} resets (${row.stats.medianIntervalDays!.toFixed(1)} days), as computed ${utcMinute(input.board.updatedAt)}. A time in the past means any time now.`,
          },
          { name: 'URL', value: `${input.baseUrl}/${row.provider}` },
          { name: 'CATEGORIES', text: 'estimate' },
          { name: 'TRANSP', value: 'TRANSPARENT' },
        ],
      };
    });
}

/** RFC 5545 wants at least one component: an empty selection says so in an event of its own. */
function nothingYetEvent(input: AnnouncementCalendarInput, host: string): IcalComponent {
  return {
    name: 'VEVENT',
    properties: [
      { name: 'UID', text: `${SERVICE_MACHINE_NAME}-nothing-yet-${input.provider ?? 'all'}@${host}` },
      { name: 'DTSTAMP', value: stamp(input.board) },
      { name: 'DTSTART', value: stamp(input.board) },
      { name: 'DURATION', value: 'PT15M' },
      { name: 'SUMMARY', text: `${SERVICE_NAME}: no announcements recorded yet` },
      { name: 'DESCRIPTION', text: 'This calendar fills itself as official reset announcements are recorded.' },
      { name: 'URL', value: `${input.baseUrl}/` },
      { name: 'TRANSP', value: 'TRANSPARENT' },
    ],
  };
}

export function renderAnnouncementCalendar(input: AnnouncementCalendarInput): string {
  const host = new URL(input.baseUrl).hostname;
  const selected = (
    input.provider === undefined ? input.events : input.events.filter((event) => event.provider === input.provider)
  ).slice(0, CALENDAR_EVENT_LIMIT);
  const who = input.provider === undefined ? 'three AI coding-tool providers' : PROVIDER_LABELS.en[input.provider];
  const events = [...selected.map((event) => announcementEvent(event, input, host)), ...estimateEvents(input, host)];
  const name =
    input.provider === undefined
      ? `${SERVICE_NAME}: announcements`
      : `${SERVICE_NAME}: ${PROVIDER_LABELS.en[input.provider]}`;
  const description = `The newest official usage-limit reset announcements of ${who} (up to ${CALENDAR_EVENT_LIMIT.toLocaleString('en')}), each linked to its original post, and the cadence estimate of the next reset (not a vendor schedule).`;
  return serializeCalendar(
    publishedCalendar(
      ANNOUNCEMENTS_PRODID,
      name,
      [
        { name: 'X-WR-CALDESC', text: description },
        // Calendar apps that honour these refresh a subscription hourly.
        { name: 'REFRESH-INTERVAL', params: 'VALUE=DURATION', value: 'PT1H' },
        { name: 'X-PUBLISHED-TTL', value: 'PT1H' },
      ],
      events.length > 0 ? events : [nothingYetEvent(input, host)],
    ),
  );
}
