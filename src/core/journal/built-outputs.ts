import type { EdgeDataset } from '../dataset.ts';
import { announcedMs, compareNewestFirst } from '../ordering.ts';
import { CALENDAR_EVENT_LIMIT, renderAnnouncementEvents } from '../render/announcement-calendar.ts';
import { utcBasic } from '../render/ical/serialize.ts';
import type { Event } from '../schemas.ts';
import { SERVICE_MACHINE_NAME } from '../site.ts';
import { PROVIDERS, type Provider } from '../vocabulary.ts';

/**
 * The journal's events in the outputs the build writes whole (decisions.md, "Confirmed within a minute"): the feeds,
 * the calendars' announcements and the timeline's default. Where a selection holds a journal event, the edge writes
 * the selection as a build made at the selection's `journalBuiltAt` would have written it, with the build's own
 * renderers; a selection without one is the built file. docs/watch.md, "Confirm", says why that time.
 */

/** A live journal entry as these outputs read it: the event and when it was confirmed. */
export interface ConfirmedEvent {
  event: Event;
  confirmedAt: string;
}

/**
 * The time a build holding the selection's journal events would carry (its `builtAt`: a feed's `lastBuildDate` and
 * `updated`, a calendar's `DTSTAMP`, the default timeline's `updatedAt`): the later of the serving build's time and
 * the newest confirm among them, so that the output says when its data last changed. Null when the journal holds
 * no event of the selection (one provider's, or every provider's when `provider` is undefined): the built file
 * stands.
 */
export function journalBuiltAt(
  builtAt: string,
  journal: readonly ConfirmedEvent[],
  provider: Provider | undefined,
): string | null {
  let latest: string | null = null;
  for (const { event, confirmedAt } of journal) {
    if (provider !== undefined && event.provider !== provider) continue;
    // Both are `toISOString()` times: one fixed-width format, so strings compare as times.
    const candidate = confirmedAt > builtAt ? confirmedAt : builtAt;
    if (latest === null || candidate > latest) latest = candidate;
  }
  return latest;
}

const CRLF = '\r\n';
const BEGIN = `BEGIN:VEVENT${CRLF}`;
const UID_OF_EVENT = new RegExp(`^UID:${SERVICE_MACHINE_NAME}-event-([A-Za-z0-9_-]+)@`, 'm');
const CATEGORY = /^CATEGORIES:(.*)$/m;
const START = /^DTSTART:(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z\r?$/m;

/** One built VEVENT: its text, and the event it announces (its id, provider and start), if it announces one. */
interface BuiltBlock {
  text: string;
  id: string | undefined;
  provider: string | undefined;
  /** DTSTART in ms: the event's effective time to the second, never before it was announced (time-rules.ts). */
  startMs: number;
}

const startMsOf = (unfolded: string): number => {
  const parts = START.exec(unfolded);
  if (parts === null) return Number.NaN;
  const [, year, month, day, hour, minute, second] = parts.map(Number) as number[];
  return Date.UTC(year!, month! - 1, day!, hour!, minute!, second!);
};

function builtBlocks(built: string): BuiltBlock[] {
  return built
    .split(BEGIN)
    .filter((part) => part !== '')
    .map((part) => {
      const text = BEGIN + part;
      // A long UID is folded over lines (RFC 5545 3.1): read it unfolded.
      const unfolded = text.replaceAll(`${CRLF} `, '');
      return {
        text,
        id: UID_OF_EVENT.exec(unfolded)?.[1],
        provider: CATEGORY.exec(unfolded)?.[1]?.trimEnd(),
        startMs: startMsOf(unfolded),
      };
    });
}

export interface JournalAnnouncementsInput {
  /** The build's announcements of the selection (`/data/calendar-events/*.txt`), as it wrote them. */
  built: string;
  /** The serving build's time: its events' `DTSTAMP`. */
  builtAt: string;
  /** The selection's `journalBuiltAt`: every event's `DTSTAMP` in the output. */
  asOf: string;
  /** The data set with the journal folded in (`context.dataset()`): the journal's events in their places. */
  dataset: EdgeDataset;
  journal: readonly Event[];
  provider: Provider | undefined;
  baseUrl: string;
}

/**
 * The calendar's announcements as a build made at `asOf` holding the journal's events would write them: the
 * journal's events of the selection that the data set lists (as every list of events has them) rendered by the
 * build's renderer, in the build's order (newest first) among the built ones, cut at the build's limit, and every
 * event stamped `asOf`. The built events are copied, not rendered again: the file holds up to 1,000, the data set
 * only each provider's 500 newest, whose order places a journal event among them. A built event the data set
 * does not list is older than each listed event of its provider, and was announced before its DTSTART's next
 * second (an effective time is never before the announcement); the one order these cannot tell is a journal event
 * announced after a built one of another provider with over 500 newer events, but before that one takes effect
 * (a reviewer confirms recent posts), and the journal event is then placed after it.
 */
export function announcementsWithJournal(input: JournalAnnouncementsInput): string {
  const listed = new Map<string, Event>();
  const oldestListed = new Map<string, Event>();
  for (const provider of PROVIDERS) {
    const recent = input.dataset.providers[provider].recent;
    for (const event of recent) listed.set(event.id, event);
    const oldest = recent.at(-1);
    if (oldest !== undefined) oldestListed.set(provider, oldest);
  }
  const blocks = builtBlocks(input.built);
  const builtIds = new Set(blocks.map((block) => block.id));
  const added = input.journal
    .filter((event) => input.provider === undefined || event.provider === input.provider)
    .filter((event) => listed.has(event.id) && !builtIds.has(event.id))
    .map((event) => listed.get(event.id)!)
    .sort(compareNewestFirst);

  // Each of up to 1,000 built events is restamped: the two lines are written once, not once an event.
  const builtStamp = `${CRLF}DTSTAMP:${utcBasic(Date.parse(input.builtAt))}${CRLF}`;
  const asOfStamp = `${CRLF}DTSTAMP:${utcBasic(Date.parse(input.asOf))}${CRLF}`;
  const stamp = (text: string) => (input.asOf === input.builtAt ? text : text.replace(builtStamp, asOfStamp));
  const render = (event: Event) =>
    renderAnnouncementEvents({
      events: [event],
      provider: input.provider,
      baseUrl: input.baseUrl,
      builtAt: input.asOf,
    });
  const newerThan = (event: Event, block: BuiltBlock): boolean => {
    const known = block.id === undefined ? undefined : listed.get(block.id);
    if (known !== undefined) return compareNewestFirst(event, known) < 0;
    // Not listed: older than every listed event of its provider, and announced before its DTSTART's next second.
    const oldest = block.provider === undefined ? undefined : oldestListed.get(block.provider);
    return (
      block.provider === event.provider ||
      (oldest !== undefined && compareNewestFirst(event, oldest) <= 0) ||
      announcedMs(event) >= block.startMs + 1_000
    );
  };

  const out: string[] = [];
  let next = 0;
  for (const block of blocks) {
    // The build's "no announcements recorded yet" stands only for an empty selection.
    if (block.id === undefined) continue;
    while (next < added.length && newerThan(added[next]!, block)) out.push(render(added[next++]!));
    out.push(stamp(block.text));
  }
  while (next < added.length) out.push(render(added[next++]!));
  if (out.length === 0)
    return renderAnnouncementEvents({
      events: [],
      provider: input.provider,
      baseUrl: input.baseUrl,
      builtAt: input.asOf,
    });
  return out.slice(0, CALENDAR_EVENT_LIMIT).join('');
}
