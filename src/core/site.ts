import type { Event } from './schemas.ts';
import type { Locale } from './vocabulary.ts';

/** Names of the service and the one place that builds its page addresses: an event's, a page's in a locale. */

export const SERVICE_NAME = 'Departures Board';
/** Used where a machine reads the name: ICS PRODID and UID prefix, MCP serverInfo, file names. */
export const SERVICE_MACHINE_NAME = 'departures-board';
export const API_VERSION = '1.0.0';

/** `{base_url}/<provider>#event-<id>`: the permanent anchor of an event on its provider's page. */
export const eventPageUrl = (baseUrl: string, event: Pick<Event, 'provider' | 'id'>): string =>
  `${baseUrl}/${event.provider}#event-${event.id}`;

/** The language of a page from its path: `/zh` and `/zh/…` are Chinese, every other page English. */
export const localeOfPath = (path: string): Locale => (path === '/zh' || path.startsWith('/zh/') ? 'zh' : 'en');

/** The same page in the other language: `/x` ↔ `/zh/x`, `/` ↔ `/zh`. */
export function localizedPath(path: string, locale: Locale): string {
  const english = path === '/zh' ? '/' : path.startsWith('/zh/') ? path.slice(3) : path;
  if (locale === 'en') return english;
  return english === '/' ? '/zh' : `/zh${english}`;
}
