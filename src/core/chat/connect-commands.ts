import type { EventKind, Locale, Provider } from '../vocabulary.ts';

/**
 * The chat webhooks' write path as a page names it (decisions.md, "Chat webhooks (Discord, Slack)"): its address,
 * and the two curl commands a page without JavaScript shows in place of its form, which cannot send JSON. No zod
 * here: the "Notify me" script imports the path, and the browser should not load a schema library for a string.
 */

/** `POST` connects a webhook, `DELETE` stops it (the route table's entry for this path says the rest). */
export const CHAT_WEBHOOKS_PATH = '/api/webhooks';

/** The webhook URL a command shows until a person pastes theirs: Discord's documented form. */
export const EXAMPLE_WEBHOOK_URL = 'https://discord.com/api/webhooks/<id>/<token>';

export interface ChatWebhookChoices {
  providers: readonly Provider[];
  kinds: readonly EventKind[];
  locale: Locale;
}

/** A POSIX shell word in single quotes, which keep every character as it is but `'` itself (written `'\''`). */
const quoted = (text: string): string => `'${text.replaceAll("'", String.raw`'\''`)}'`;

const jsonRequest = (method: 'POST' | 'DELETE', endpoint: string, body: object): string =>
  `curl -X ${method} ${quoted(endpoint)} -H 'Content-Type: application/json' \\\n  -d ${quoted(JSON.stringify(body))}`;

/**
 * What a person runs to connect `url` with these choices, and to stop it: the same JSON the page's script sends.
 * Two lines each (a trailing backslash joins them), so a phone wraps less.
 */
export function chatWebhookCommands(
  baseUrl: string,
  choices: ChatWebhookChoices,
  url: string = EXAMPLE_WEBHOOK_URL,
): { connect: string; stop: string } {
  const endpoint = `${baseUrl}${CHAT_WEBHOOKS_PATH}`;
  const { providers, kinds, locale } = choices;
  return {
    connect: jsonRequest('POST', endpoint, { url, providers, kinds, locale }),
    stop: jsonRequest('DELETE', endpoint, { url }),
  };
}
