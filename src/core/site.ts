import type { Event } from './schemas.ts';
import { LANGUAGES, type Locale } from './languages.ts';

/** Names of the service and the one place that builds its page addresses: an event's, a page's in a locale. */

export const SERVICE_NAME = 'Departures Board';
/** Used where a machine reads the name: ICS PRODID and UID prefix, MCP serverInfo, file names. */
export const SERVICE_MACHINE_NAME = 'departures-board';
export const API_VERSION = '1.0.0';

/** `{base_url}/<provider>#event-<id>`: the permanent anchor of an event on its provider's page. */
export const eventPageUrl = (baseUrl: string, event: Pick<Event, 'provider' | 'id'>): string =>
  `${baseUrl}/${event.provider}#event-${event.id}`;

/** The language whose prefix a path is under (`/zh`, `/pt-br/about`); English, at the root, for any other path. */
const prefixedLanguage = (path: string) =>
  LANGUAGES.find(
    (language) => language.prefix !== '' && (path === `/${language.prefix}` || path.startsWith(`/${language.prefix}/`)),
  );

/** The language of a page from its path: `/zh` and `/zh/…` are Chinese, every other unprefixed page English. */
export const localeOfPath = (path: string): Locale => prefixedLanguage(path)?.code ?? 'en';

/** The same page in a language: `/x` ↔ `/zh/x` ↔ `/pt-br/x`, `/` ↔ `/zh`. */
export function localizedPath(path: string, locale: Locale): string {
  const from = prefixedLanguage(path);
  const english = from === undefined ? path : path === `/${from.prefix}` ? '/' : path.slice(from.prefix.length + 1);
  const to = LANGUAGES.find((language) => language.code === locale);
  if (to === undefined || to.prefix === '') return english;
  return english === '/' ? `/${to.prefix}` : `/${to.prefix}${english}`;
}
