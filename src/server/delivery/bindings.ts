/**
 * The delivery wing's bindings and settings (wrangler.jsonc; docs/deploy in docs/delivery.md, "Running it locally and deploying"). All
 * optional: a deployment without them (and the in-process tests) answers the write paths 503 and serves the rest.
 * Each channel reads its own secrets only (push: the VAPID keys).
 */
export interface DeliveryBindings {
  /** The service's state: subscribers, their topics, the ledger, the claims, the watcher's drafts. */
  DB?: D1Database;
  /** The one queue of every channel's fan-outs, deliveries and verifications. */
  DELIVERY_QUEUE?: Queue;
  /** Subscription writes per IPv4 address or IPv6 /64 (10 a minute). */
  WRITE_LIMITER?: RateLimit;
  /** Verification requests (WebSub's GET to a callback) per IPv4 address or IPv6 /64. */
  VERIFY_LIMITER?: RateLimit;
  /** Total subscribers per channel, as JSON `{"push":100000,…}`; a channel left out keeps its default cap. */
  SUBSCRIBER_CAPS?: string;
  VAPID_PUBLIC_KEY?: string;
  VAPID_PRIVATE_KEY?: string;
  VAPID_SUBJECT?: string;
  /** The loopback test switch (decisions.md): `"true"` lets every outbound address be `http://127.0.0.1:<port>`. */
  ALLOW_LOOPBACK_RECEIVERS?: string;
  /** Its older name, still read. */
  PUSH_ALLOW_LOOPBACK_RECEIVER?: string;
  /** The Telegram bot's token (a secret: it is in every Bot API URL, never in a log line). */
  TELEGRAM_BOT_TOKEN?: string;
  /** What Telegram sends in `X-Telegram-Bot-Api-Secret-Token` (`setWebhook`'s `secret_token`). */
  TELEGRAM_WEBHOOK_SECRET?: string;
  /** The Bot API's address, `https://api.telegram.org` by default (loopback only under the test switch). */
  TELEGRAM_API_URL?: string;
  /** The bot's username, without `@`: a group's `/status@<bot>` names it. */
  TELEGRAM_BOT_USERNAME?: string;
  ASSETS: Pick<Fetcher, 'fetch'>;
}
