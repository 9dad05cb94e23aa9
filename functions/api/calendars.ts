import { statusFromSummary } from '../../src/core/board.ts';
import { calendarEventsPath } from '../../src/core/built-paths.ts';
import { PROVIDERS, type Provider } from '../../src/core/enums.ts';
import { announcementsWithJournal, journalBuiltAt } from '../../src/core/journal/built-outputs.ts';
import { announcementCalendarFrame } from '../../src/core/render/announcement-calendar.ts';
import { renderWindowCalendar, windowCalendarFileName } from '../../src/core/render/window-calendar.ts';
import { CONTENT_TYPES } from '../../src/core/routes/policy.ts';
import { BASE_URL } from '../../src/server/base-url.ts';
import type { EdgeContext } from '../../src/server/context.ts';
import { DataSourceUnavailable } from '../../src/server/data-source.ts';
import { bytesEtag } from '../../src/server/http/etag.ts';
import { textResponse } from '../../src/server/http/responses.ts';
import type { EdgeHandlers } from '../route-handler.ts';

const encoder = new TextEncoder();

/**
 * GET /calendar.ics and /calendar/<provider>.ics: the build's announcements of the selection (up to 1,000, a
 * built file) inside a frame written now, with each estimate still ahead of now (announcement-calendar.ts).
 * The estimates come from the summaries the status reads (loaded once per isolate); the announcements' bytes are
 * copied, not parsed, so the request costs the few estimates' text and a copy, whatever the history. While the
 * journal holds an event of the selection, the announcements are written with it (`journalCalendar`): decoded,
 * restamped and hashed once, which only then costs the 1,000 announcements' text.
 */
async function announcementCalendar(context: EdgeContext, provider: Provider | undefined): Promise<Response> {
  const path = calendarEventsPath(provider);
  const [summaries, built] = await Promise.all([
    context.summaries(),
    // Not with the request's headers: a Range or If-None-Match is about the whole calendar, not this part.
    context.env.ASSETS.fetch(new URL(path, context.url.origin)),
  ]);
  if (!built.ok) throw new DataSourceUnavailable(`the prerendered ${path} answered ${built.status}`);
  const selected = provider === undefined ? PROVIDERS : [provider];
  const frame = (builtAt: string) =>
    announcementCalendarFrame({
      rows: selected.map((name) => statusFromSummary(summaries[name], context.now)),
      provider,
      baseUrl: BASE_URL,
      now: context.now,
      builtAt,
    });
  const withJournal = await journalCalendar(context, provider, built);
  if (withJournal !== null) {
    const { head, tail } = frame(withJournal.builtAt);
    const body = encoder.encode(head + withJournal.announcements + tail);
    return new Response(body, {
      headers: { 'Content-Type': CONTENT_TYPES.calendar, ETag: await bytesEtag(body.buffer) },
    });
  }
  const { head, tail } = frame(summaries[selected[0]!].asOf);
  // The built part's bytes between the two written here, copied as they are (never decoded or parsed).
  const body = new Blob([head, await built.blob(), tail]);
  // The validator names the built part by the asset store's own ETag and the part written here by its bytes, so
  // that a poller gets 304 until an estimate comes, goes or moves, without hashing the 1,000 announcements.
  const builtTag = built.headers.get('ETag');
  const etag = await bytesEtag(
    builtTag === null ? await body.arrayBuffer() : encoder.encode(`${builtTag}\n${head}${tail}`).buffer,
  );
  return new Response(body, { headers: { 'Content-Type': CONTENT_TYPES.calendar, ETag: etag } });
}

/**
 * The announcements with the journal's events of the selection, as a build made at the selection's
 * `journalBuiltAt` would have written them, and that time (the frame's `DTSTAMP` too); null when the journal holds
 * none of the selection and the built part stands as it is (src/core/journal/built-outputs.ts).
 */
async function journalCalendar(
  context: EdgeContext,
  provider: Provider | undefined,
  built: Response,
): Promise<{ announcements: string; builtAt: string } | null> {
  const journal = await context.journalEntries();
  if (journal.length === 0) return null;
  const dataset = await context.dataset();
  const builtAt = journalBuiltAt(dataset.builtAt, journal, provider);
  if (builtAt === null) return null;
  const announcements = announcementsWithJournal({
    built: await built.text(),
    builtAt: dataset.builtAt,
    asOf: builtAt,
    dataset,
    journal: journal.map((entry) => entry.event),
    provider,
    baseUrl: BASE_URL,
  });
  return { announcements, builtAt };
}

export const CALENDAR_HANDLERS = {
  /** GET /api/ics (spec 4.5): a calendar of the caller's own windows, built from the query, stored nowhere. */
  getWindowCalendar: (context, { query }) =>
    textResponse(renderWindowCalendar({ query, baseUrl: BASE_URL, now: context.now }), CONTENT_TYPES.calendar, {
      'Content-Disposition': `attachment; filename=${windowCalendarFileName(query.provider)}`,
    }),
  getAnnouncementCalendar: (context, { query }) => announcementCalendar(context, query.provider),
  getProviderCalendar: (context, { params }) => announcementCalendar(context, params.provider),
} satisfies Partial<EdgeHandlers>;
