import { MEDIAN_BASIS_RESETS } from '../cadence.ts';
import type { Provider } from '../enums.ts';
import { PROVIDER_LABELS } from '../i18n/labels.ts';
import { effectiveMs, toIsoTimestamp } from '../ordering.ts';
import type { Event, ProviderStatus } from '../schemas.ts';
import { eventPageUrl, SERVICE_MACHINE_NAME, SERVICE_NAME } from '../site.ts';
import {
  calendarAround,
  publishedCalendar,
  serializeComponents,
  utcBasic,
  type IcalComponent,
} from './ical/serialize.ts';
import { eventTitle, utcMinute } from './labels.ts';

/**
 * `/calendar.ics` (and `/calendar/<provider>.ics`): every published announcement as an event a calendar app can
 * subscribe to, and each provider's cadence estimate as an event clearly labelled as one.
 *
 * Two parts, made at two times. The announcements depend only on the events, and a selection holds up to 1,000
 * of them: the build writes them once per selection (`renderAnnouncementEvents`). The estimates depend on the
 * clock: an estimate whose time has come leaves the calendar (docs/calendar.md), so the edge writes them and the
 * calendar's frame around the built events at request time (`announcementCalendarFrame`), which costs a few
 * providers' worth of text.
 */

export const ANNOUNCEMENTS_PRODID = `-//${SERVICE_NAME}//Announcements//EN`;

/**
 * A subscribed calendar holds the newest 1,000 announcements: calendar apps slow down on huge feeds, and a
 * static file must stay under the platform's 25 MiB per asset however long the history grows.
 */
export const CALENDAR_EVENT_LIMIT = 1_000;

/**
 * Every event of the calendar lasts this long. It is also what makes "no estimate event ends before the moment
 * the calendar is served" hold for a copy served from a cache: an estimate is left out once it starts, and the
 * calendar's cache lifetime (`CACHE_POLICIES.calendar`, s-maxage plus stale-while-revalidate) is no longer than
 * this, so a kept estimate still has this long to run when its copy is last served.
 */
export const CALENDAR_EVENT_MINUTES = 15;
const EVENT_DURATION = `PT${CALENDAR_EVENT_MINUTES}M`;

export interface AnnouncementEventsInput {
  /** Published events, newest first. */
  events: readonly Event[];
  provider: Provider | undefined;
  baseUrl: string;
  /** When the build made them: each event's DTSTAMP. */
  builtAt: string;
}

export interface AnnouncementFrameInput {
  /** The board's rows at `now` (statusFromSummary): their estimates, for the providers of the selection. */
  rows: readonly ProviderStatus[];
  provider: Provider | undefined;
  baseUrl: string;
  /** The moment the calendar is served: an estimate that does not start after it is left out. */
  now: Date;
  /** When the data the estimates come from was built: their DTSTAMP (so a poller's copy stays valid until they change). */
  builtAt: string;
}

const hostOf = (baseUrl: string) => new URL(baseUrl).hostname;

function announcementEvent(event: Event, input: AnnouncementEventsInput, host: string): IcalComponent {
  return {
    name: 'VEVENT',
    properties: [
      { name: 'UID', text: `${SERVICE_MACHINE_NAME}-event-${event.id}@${host}` },
      { name: 'DTSTAMP', value: utcBasic(Date.parse(input.builtAt)) },
      { name: 'DTSTART', value: utcBasic(effectiveMs(event)) },
      { name: 'DURATION', value: EVENT_DURATION },
      { name: 'SUMMARY', text: eventTitle(event) },
      { name: 'DESCRIPTION', text: `${event.summary}\n\nOriginal post by ${event.sourceAccount}: ${event.sourceUrl}` },
      { name: 'URL', value: eventPageUrl(input.baseUrl, event) },
      { name: 'CATEGORIES', text: event.provider },
      { name: 'TRANSP', value: 'TRANSPARENT' },
    ],
  };
}

/** RFC 5545 wants at least one component: an empty selection says so in an event of its own. */
function nothingYetEvent(input: AnnouncementEventsInput, host: string): IcalComponent {
  const stamp = utcBasic(Date.parse(input.builtAt));
  return {
    name: 'VEVENT',
    properties: [
      { name: 'UID', text: `${SERVICE_MACHINE_NAME}-nothing-yet-${input.provider ?? 'all'}@${host}` },
      { name: 'DTSTAMP', value: stamp },
      { name: 'DTSTART', value: stamp },
      { name: 'DURATION', value: EVENT_DURATION },
      { name: 'SUMMARY', text: `${SERVICE_NAME}: no announcements recorded yet` },
      { name: 'DESCRIPTION', text: 'This calendar fills itself as official reset announcements are recorded.' },
      { name: 'URL', value: `${input.baseUrl}/` },
      { name: 'TRANSP', value: 'TRANSPARENT' },
    ],
  };
}

/**
 * The build's part: the newest 1,000 announcements of the selection as VEVENTs, without the calendar around
 * them (or the one event that says none is recorded yet: an estimate needs two resets, so a selection without
 * announcements has no estimate either, and the calendar is never empty).
 */
export function renderAnnouncementEvents(input: AnnouncementEventsInput): string {
  const host = hostOf(input.baseUrl);
  const selected = (
    input.provider === undefined ? input.events : input.events.filter((event) => event.provider === input.provider)
  ).slice(0, CALENDAR_EVENT_LIMIT);
  return serializeComponents(
    selected.length > 0
      ? selected.map((event) => announcementEvent(event, input, host))
      : [nothingYetEvent(input, host)],
  );
}

/** Each selected provider's estimate that is still ahead of `now`, labelled as an estimate and not a schedule. */
function estimateEvents(input: AnnouncementFrameInput, host: string): IcalComponent[] {
  const nowMs = input.now.getTime();
  return input.rows.flatMap((row) => {
    if (input.provider !== undefined && row.provider !== input.provider) return [];
    if (row.nextEstimate === null || row.lastReset === null || row.stats.medianIntervalDays === null) return [];
    const startMs = Date.parse(row.nextEstimate);
    // Its time has come: left out (docs/calendar.md, "A passed estimate").
    if (startMs <= nowMs) return [];
    const label = PROVIDER_LABELS.en[row.provider];
    return [
      {
        name: 'VEVENT',
        properties: [
          { name: 'UID', text: `${SERVICE_MACHINE_NAME}-estimate-${row.provider}@${host}` },
          { name: 'DTSTAMP', value: utcBasic(Date.parse(input.builtAt)) },
          { name: 'DTSTART', value: utcBasic(startMs) },
          { name: 'DURATION', value: EVENT_DURATION },
          { name: 'SUMMARY', text: `${label}: next reset? (cadence estimate, not a schedule)` },
          {
            name: 'DESCRIPTION',
            text: `A cadence estimate, not a vendor schedule: the last reset (${utcMinute(toIsoTimestamp(effectiveMs(row.lastReset)))}) plus the median gap between the last ${MEDIAN_BASIS_RESETS} resets (${row.stats.medianIntervalDays.toFixed(1)} days). It leaves this calendar when its time comes, whether or not a reset follows; the board says what happened.`,
          },
          { name: 'URL', value: `${input.baseUrl}/${row.provider}` },
          { name: 'CATEGORIES', text: 'estimate' },
          { name: 'TRANSP', value: 'TRANSPARENT' },
        ],
      },
    ];
  });
}

/**
 * The edge's part: the calendar's header and the estimates at `now` (`head`), and its end (`tail`). The served
 * calendar is `head + renderAnnouncementEvents(…) + tail`.
 */
export function announcementCalendarFrame(input: AnnouncementFrameInput): { head: string; tail: string } {
  const who = input.provider === undefined ? 'three AI coding-tool providers' : PROVIDER_LABELS.en[input.provider];
  const name =
    input.provider === undefined
      ? `${SERVICE_NAME}: announcements`
      : `${SERVICE_NAME}: ${PROVIDER_LABELS.en[input.provider]}`;
  const description = `The newest official usage-limit reset announcements of ${who} (up to ${CALENDAR_EVENT_LIMIT.toLocaleString('en')}), each linked to its original post, and the cadence estimate of the next reset (not a vendor schedule) while its time is still ahead.`;
  return calendarAround(
    publishedCalendar(
      ANNOUNCEMENTS_PRODID,
      name,
      [
        { name: 'X-WR-CALDESC', text: description },
        // Calendar apps that honour these refresh a subscription hourly.
        { name: 'REFRESH-INTERVAL', params: 'VALUE=DURATION', value: 'PT1H' },
        { name: 'X-PUBLISHED-TTL', value: 'PT1H' },
      ],
      estimateEvents(input, hostOf(input.baseUrl)),
    ),
  );
}

/** The whole calendar at `now`, as the edge serves it: the frame around the build's events. */
export function renderAnnouncementCalendar(input: AnnouncementFrameInput & { events: readonly Event[] }): string {
  const { head, tail } = announcementCalendarFrame(input);
  return head + renderAnnouncementEvents(input) + tail;
}
