import { TRANSLATIONS } from '../i18n/index.ts';
import type { Event } from '../schemas.ts';
import type { EventKind, Locale, Provider } from '../vocabulary.ts';
import { hasLaterEffect, type Transition } from './due.ts';

/**
 * The decided push payload (decisions.md, "Push notifications"): JSON the service worker turns into a
 * notification, in the subscription's language. Its words are in the i18n files.
 */
export interface PushPayload {
  title: string;
  body: string;
  /** `{base_url}/<provider>#event-<id>`: the event on its provider's page. */
  url: string;
  /** `<provider>-<kind>`: a newer notification of the same topic replaces the older one on the screen. */
  tag: string;
  eventId: string;
  provider: Provider;
  kind: EventKind;
  transition: Transition;
}

/** Push services take about 4 KB of encrypted payload; the decision keeps the JSON under 3 KB. */
export const PUSH_PAYLOAD_MAX_BYTES = 3072;

export function pushPayload(event: Event, transition: Transition, locale: Locale, baseUrl: string): PushPayload {
  const words = TRANSLATIONS[locale];
  const provider = words.providers[event.provider];
  const kind = words.kinds[event.kind];
  const scheduled = transition === 'announced' && hasLaterEffect(event);
  const title =
    transition === 'effective'
      ? words.push.effectiveTitle(provider, kind)
      : scheduled
        ? words.push.scheduledTitle(provider, kind)
        : words.push.title(provider, kind);
  // The summary is the original post's excerpt, in its own language; the sentence before it is ours.
  // The moment in the words' own form (`2026-06-15 10:30 UTC`, `2026年6月15日 10:30（UTC）`).
  const when =
    transition === 'effective'
      ? words.push.inEffectSince(words.formats.minute(event.effectiveAt ?? event.announcedAt))
      : scheduled
        ? words.push.scheduledFor(words.formats.minute(event.effectiveAt as string))
        : undefined;
  return {
    title,
    body: when === undefined ? event.summary : `${when}${words.push.separator}${event.summary}`,
    url: `${baseUrl.replace(/\/+$/, '')}/${event.provider}#event-${event.id}`,
    tag: `${event.provider}-${event.kind}`,
    eventId: event.id,
    provider: event.provider,
    kind: event.kind,
    transition,
  };
}

/** The payload as sent: JSON, UTF-8. */
export const encodePayload = (payload: PushPayload): string => JSON.stringify(payload);
