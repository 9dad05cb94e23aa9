import { z } from 'zod';
import { lazySchema } from '../lazy-schema.ts';
import { TRANSLATIONS } from '../i18n/index.ts';
import { languageOf } from '../languages.ts';
import { DEFAULT_OUTBOUND_RULES, type OutboundRules, outboundAddress, parseAddress } from '../outbound/address.ts';
import { addressLookupSchema, outboundAddressSchema } from '../outbound/address-schema.ts';
import type { Transition } from '../push/due.ts';
import { pushPayload } from '../push/payload.ts';
import { PUSH_BODY_MAX_BYTES, SubscriptionTopicsSchema, TOPIC_FIELDS } from '../push/subscription.ts';
import type { Event } from '../schemas.ts';
import { localizedPath } from '../site.ts';
import type { EventKind, Locale, Provider } from '../vocabulary.ts';

/**
 * ntfy (decisions.md, "More channels: Telegram, ntfy, signed webhooks"; docs/delivery.md, "ntfy"): the write bodies
 * of `POST /api/ntfy` and `DELETE /api/ntfy`, the messages as ntfy's publishing documents describe them (JSON
 * published to the server's root: `topic`, `title`, `message`, `tags`, `priority`, `click`), and the activation page
 * a new topic's first message links to.
 */

export const NTFY_BODY_MAX_BYTES = PUSH_BODY_MAX_BYTES;

/** ntfy's topic names: letters, digits, `_` and `-`, at most 64 (its "Publishing" document). */
const TOPIC_NAME = /^[A-Za-z0-9_-]{1,64}$/;

export const NOT_A_TOPIC_URL =
  'must be an ntfy topic URL: the server and one topic name, such as https://ntfy.sh/my-topic (letters, digits, _ and -, at most 64)';

/** The topic name of a stored topic URL, or `undefined` when its path is not one topic name. */
export function ntfyTopicName(url: string): string | undefined {
  const parsed = parseAddress(url);
  if (parsed === undefined || parsed.search !== '') return undefined;
  const name = parsed.pathname.slice(1);
  return TOPIC_NAME.test(name) ? name : undefined;
}

/** Where a topic's messages are published as JSON: its server's root. */
export const ntfyServerRoot = (topicUrl: string): string => `${new URL(topicUrl).origin}/`;

const topicUrlSchema = (rules: OutboundRules) =>
  outboundAddressSchema(rules)
    .superRefine((url, context) => {
      // An address the policy refused has its issue already: one issue per problem.
      if (outboundAddress(url, rules).ok && ntfyTopicName(url) === undefined)
        context.addIssue({ code: 'custom', message: NOT_A_TOPIC_URL });
    })
    .describe('an ntfy topic URL: https, a public server (ntfy.sh or your own) and one topic name');

/** `POST /api/ntfy`'s body under `rules` (the setting of the loopback test receiver). */
export const ntfyRequestSchema = (rules: OutboundRules) => z.object({ topic: topicUrlSchema(rules), ...TOPIC_FIELDS });
export const NtfyRequestSchema = lazySchema(() =>
  ntfyRequestSchema(DEFAULT_OUTBOUND_RULES).meta({ id: 'NtfyRequest' }),
);
export type NtfyRequest = z.infer<typeof NtfyRequestSchema>;

/** `DELETE /api/ntfy`'s body: the topic URL to forget (an unknown one is no error). */
export const NtfyForgetSchema = z.object({ topic: addressLookupSchema }).meta({ id: 'NtfyForget' });

/** What the POST answers: the topics and language stored, and that the topic must still be activated. */
export const NtfyTopicsSchema = lazySchema(() =>
  z.strictObject({ ...SubscriptionTopicsSchema.shape, activated: z.literal(false) }).meta({ id: 'NtfyTopics' }),
);

/** The activation link's query: the topic URL and its token (32 random bytes, base64url). */
export const NtfyActivationQuerySchema = z.object({
  topic: z.string().min(1).max(2048),
  token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'the token of an activation link'),
});

export const NTFY_ACTIVATION_PATH = '/api/ntfy/activate';

export const ntfyActivationUrl = (baseUrl: string, topic: string, token: string): string =>
  `${baseUrl.replace(/\/+$/, '')}${NTFY_ACTIVATION_PATH}?${new URLSearchParams({ topic, token })}`;

/** One message as ntfy's JSON publishing takes it. Priority 4 is `high`, 3 the `default`. */
export interface NtfyMessage {
  topic: string;
  title: string;
  message: string;
  tags: string[];
  priority: 3 | 4;
  click: string;
}

/** `{base_url}/<provider>#event-<id>`, on the page in the subscription's language. */
const anchorUrl = (baseUrl: string, event: Event, locale: Locale) =>
  `${baseUrl.replace(/\/+$/, '')}${localizedPath(`/${event.provider}`, locale)}#event-${event.id}`;

/** The message of one (event, transition), in `locale`: push's title and body (so it reads as a browser's does). */
export function ntfyMessage(
  topic: string,
  event: Event,
  transition: Transition,
  locale: Locale,
  baseUrl: string,
): NtfyMessage {
  const { title, body } = pushPayload(event, transition, locale, baseUrl);
  return {
    topic,
    title,
    message: body,
    // ntfy shows a tag that is an emoji short code as the emoji, the others as words.
    tags: [event.kind === 'reset' ? 'arrows_counterclockwise' : 'loudspeaker', event.provider, event.kind],
    priority: event.kind === 'reset' ? 4 : 3,
    click: anchorUrl(baseUrl, event, locale),
  };
}

export interface NtfyChoices {
  providers: readonly Provider[];
  kinds: readonly EventKind[];
}

/** What will be sent, in words: the providers' names and the kinds. */
export function choicesText({ providers, kinds }: NtfyChoices, locale: Locale): string {
  const words = TRANSLATIONS[locale];
  const list = (items: string[]) => items.join(words.ntfy.listSeparator);
  return words.ntfy.choices(
    list(providers.map((provider) => words.providers[provider])),
    list(kinds.map((kind) => words.kinds[kind])),
  );
}

/** The first message: what this is, and the link that activates it. Nothing else is sent before it is opened. */
export function ntfyActivationMessage(
  topic: string,
  choices: NtfyChoices,
  locale: Locale,
  activationUrl: string,
): NtfyMessage & { actions: [{ action: 'view'; label: string; url: string }] } {
  const words = TRANSLATIONS[locale].ntfy;
  return {
    topic,
    title: words.activationTitle,
    message: words.activationBody(choicesText(choices, locale), activationUrl),
    tags: ['bell'],
    priority: 3,
    click: activationUrl,
    actions: [{ action: 'view', label: words.activate, url: activationUrl }],
  };
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character]!,
  );

export type ActivationPageState = 'ask' | 'activated' | 'unknown';

/**
 * The activation page: `ask` (GET: what will be sent and a button; nothing changes, since link previews fetch it),
 * `activated` (after the POST), `unknown` (no such topic waiting, or a wrong token). No script, no style of its own.
 */
export function activationPage(
  state: ActivationPageState,
  locale: Locale,
  subscription?: { topic: string; token: string; choices: NtfyChoices },
): string {
  const words = TRANSLATIONS[locale].ntfy;
  const lang = languageOf(locale).tag;
  let main: string;
  if (state === 'ask' && subscription !== undefined) {
    const action = `${NTFY_ACTIVATION_PATH}?${new URLSearchParams({ topic: subscription.topic, token: subscription.token })}`;
    main = `<p>${escapeHtml(words.pageAsk(subscription.topic))}</p>
<p>${escapeHtml(choicesText(subscription.choices, locale))}</p>
<form method="post" action="${escapeHtml(action)}"><button type="submit">${escapeHtml(words.activate)}</button></form>`;
  } else if (state === 'activated') main = `<p>${escapeHtml(words.pageActivated)}</p>`;
  else main = `<p>${escapeHtml(words.pageUnknown)}</p>`;
  return `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(words.pageTitle)}</title></head>
<body><main><h1>${escapeHtml(words.pageTitle)}</h1>
${main}
</main></body></html>
`;
}

/** The topic URL a command shows until a person types theirs. */
export const EXAMPLE_TOPIC_URL = 'https://ntfy.sh/<your-topic>';

/** A POSIX shell word in single quotes (`'` itself written `'\''`), as the chat part's commands quote. */
const quoted = (text: string): string => `'${text.replaceAll("'", String.raw`'\''`)}'`;

/** The curl commands that subscribe a topic and stop it: "Notify me"'s ntfy part without JavaScript. */
export function ntfyCommands(
  baseUrl: string,
  choices: NtfyChoices & { locale: Locale },
  topic: string = EXAMPLE_TOPIC_URL,
): { subscribe: string; stop: string } {
  const endpoint = quoted(`${baseUrl.replace(/\/+$/, '')}/api/ntfy`);
  const request = (method: string, body: object) =>
    `curl -X ${method} ${endpoint} -H 'Content-Type: application/json' \\\n  -d ${quoted(JSON.stringify(body))}`;
  const { providers, kinds, locale } = choices;
  return { subscribe: request('POST', { topic, providers, kinds, locale }), stop: request('DELETE', { topic }) };
}
