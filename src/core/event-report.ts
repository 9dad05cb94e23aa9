import type { Event } from './schemas.ts';
import { eventPageUrl } from './site.ts';

/**
 * "Report a problem with this event": the link under each event on the pages (src/components/EventList.astro) to
 * the repository's issue form for a wrong event (.github/ISSUE_TEMPLATE/wrong-event.yml), with the event's id, its
 * page and its original post filled in. GitHub fills an issue form's field from the query parameter named by the
 * field's `id`, and the issue's title from `title`.
 *
 * The title is in English, whatever the page's language: the issue lands in the repository, whose forms and
 * reviews are in English.
 */

/** The issue form's file name in `.github/ISSUE_TEMPLATE/`, as `template=` names it. */
export const WRONG_EVENT_FORM = 'wrong-event.yml';

/** The form's fields the link fills, by the `id` each has in the form (the node test checks they exist there). */
export const WRONG_EVENT_FIELDS = { eventId: 'event-id', pageUrl: 'page-url', sourceUrl: 'source-url' } as const;

/** The title starts as the form's own title does, then names the event and quotes the start of its summary. */
export const WRONG_EVENT_TITLE_PREFIX = '[wrong event] ';
/** How much of the summary the title quotes, in characters (code points); a longer summary is cut with "…". */
export const WRONG_EVENT_TITLE_EXCERPT = 50;

/**
 * `REPOSITORY_URL` as the links use it: trimmed, without trailing slashes; `null` when it is unset, empty, or not an
 * http(s) address (a link built on it would lead nowhere, so none is shown).
 */
export function repositoryBaseUrl(configured: string | null | undefined): string | null {
  const trimmed = configured?.trim().replace(/\/+$/, '') ?? '';
  if (trimmed === '') return null;
  try {
    const { protocol } = new URL(trimmed);
    return protocol === 'https:' || protocol === 'http:' ? trimmed : null;
  } catch {
    return null;
  }
}

// A lone surrogate cannot be put in a URL (encodeURIComponent throws): it becomes U+FFFD. With the `u` flag the
// class meets only lone ones: a pair is one code point.
const LONE_SURROGATE = /[\uD800-\uDFFF]/gu;

/** The start of the summary on one line: whitespace runs (line breaks, tabs) as one space, cut at a code point. */
function excerpt(summary: string): string {
  const characters = [...summary.replace(/\s+/gu, ' ').trim()];
  if (characters.length <= WRONG_EVENT_TITLE_EXCERPT) return characters.join('');
  return `${characters.slice(0, WRONG_EVENT_TITLE_EXCERPT).join('').trimEnd()}…`;
}

const encode = (value: string) => encodeURIComponent(value.replace(LONE_SURROGATE, '\uFFFD'));

/**
 * `{repository}/issues/new?template=wrong-event.yml&title=…&event-id=…&page-url=…&source-url=…`, every value
 * percent-encoded; `null` without a repository (`repositoryBaseUrl` of `REPOSITORY_URL`): there is then nowhere to
 * report to, and the pages show no link rather than one that leads nowhere.
 */
export function wrongEventReportUrl(
  repositoryUrl: string | null,
  baseUrl: string,
  event: Pick<Event, 'id' | 'provider' | 'summary' | 'sourceUrl'>,
): string | null {
  if (repositoryUrl === null) return null;
  const query: [string, string][] = [
    ['template', WRONG_EVENT_FORM],
    ['title', `${WRONG_EVENT_TITLE_PREFIX}${event.id}: ${excerpt(event.summary)}`],
    [WRONG_EVENT_FIELDS.eventId, event.id],
    [WRONG_EVENT_FIELDS.pageUrl, eventPageUrl(baseUrl, event)],
    [WRONG_EVENT_FIELDS.sourceUrl, event.sourceUrl],
  ];
  return `${repositoryUrl}/issues/new?${query.map(([name, value]) => `${name}=${encode(value)}`).join('&')}`;
}
