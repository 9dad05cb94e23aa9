/**
 * The "Notify me" section's other channels, beside the browser's push control (`notify` in index.ts):
 * src/components/NotifyChannels.astro and ChatWebhookChannel.astro, script src/scripts/chat-webhook-form.ts.
 * `{platform}`, `{status}` and `{detail}` are filled in by the script: the platform the server named, an HTTP
 * status, the server's own words.
 */
export const notifyChannels = {
  /** Each channel's line in the section (a `<summary>`): where the announcements reach you. */
  summaries: {
    browser: 'In this browser',
    chat: 'In a Discord or Slack channel',
    ntfy: 'With the ntfy app',
    telegram: 'In Telegram',
    feeds: 'In a feed reader',
    calendars: 'In a calendar',
    terminal: 'In a terminal or status bar',
    hooks: 'On your server: signed webhooks',
  },
  chat: {
    intro:
      'Each new announcement you choose is posted to the channel, in English, with a link to it here. Paste the channel’s webhook URL: in Discord, the channel’s settings → Integrations → Webhooks → Copy Webhook URL; in Slack, an app’s incoming webhook.',
    url: 'Webhook URL',
    connect: 'Connect',
    stop: 'Stop posting',
    privacy:
      'Kept: the webhook URL, your choices and the language, never shown back. “Stop posting” with the same URL, or deleting the webhook, ends it.',
    noScript:
      'Without JavaScript this page cannot send the JSON the service reads. Send it with curl instead, with your webhook URL in place of the example:',
    noScriptStop: 'To stop:',
    status: {
      chooseProvider: 'Choose at least one provider.',
      chooseKind: 'Choose at least one kind of announcement.',
      connecting: 'Connecting…',
      created: 'Connected: the announcements you chose will be posted to this {platform} channel.',
      replaced: 'This {platform} webhook was already connected: its choices are now these.',
      stopping: 'Stopping…',
      stopped: 'Stopped: nothing more will be posted to that webhook.',
      badUrl: 'The service does not post to that address: {detail}',
      refused: 'The server did not take it (HTTP {status}): {detail}',
      busy: 'Too many changes: try again in a minute.',
      unavailable: 'Posting to Discord and Slack is not available on this server right now; try again later.',
      offline: 'This site could not be reached: check your connection, then try again.',
      failed: 'That did not work ({detail}). Please try again later.',
    },
  },
  telegram: {
    intro:
      'A bot posts each new announcement you choose to a private chat, a group or a channel, in your Telegram language (English or Chinese), with a link to it here.',
    openBot: 'Open the bot',
    noBot: 'This server has no Telegram bot configured.',
    steps: 'Start the bot (in a group or channel, add it first), then send one of these:',
    subscribeHelp: 'every reset of all providers; name providers and kinds to choose',
    statusHelp: 'the board now',
    unsubscribeHelp: 'stop',
    onTheBoard: 'On the board',
    bot: {
      start:
        'This bot posts the announcements of AI usage-limit resets you choose to this chat, each once, with a link to it on the board.',
      usage:
        'Commands: /subscribe <providers> [kinds] (providers: {providers} or all; kinds: {kinds}; default reset), /status (the board now), /unsubscribe (stop).',
      subscribed: 'Subscribed: {providers}. Kinds: {kinds}. Send /unsubscribe to stop.',
      unsubscribed: 'Unsubscribed: nothing more will be posted to this chat.',
      listSeparator: ', ',
    },
  },
  ntfy: {
    intro:
      'Each new announcement you choose, in English, as a notification of the ntfy app on a phone or a desktop: subscribe the app to a topic (on ntfy.sh or your own server), then send its URL here.',
    subscribe: 'With curl, your topic URL in place of the example:',
    activation:
      'The topic is sent one message with an activation link; nothing else is sent until you open it and press Activate.',
    stop: 'To stop:',
  },
  feeds: {
    intro: 'The newest announcements as RSS, Atom or JSON Feed:',
    everyProvider: 'All providers',
    websub: 'Readers that support WebSub are sent each change by the hub the moment it happens, instead of polling it:',
    /** The link to the API page follows at once: the space before it, if the language has one, is here. */
    developers:
      'Developers can subscribe a server of their own to any feed with a form POST to the hub (WebSub, section 5.1); the endpoints are described on the ',
    apiPage: 'API page',
  },
  hooks: {
    intro:
      'For developers: each new announcement you choose, and each reset when it takes effect, is POSTed to your https URL as JSON, signed as the Standard Webhooks specification says (webhook-id, webhook-timestamp, webhook-signature), so any of its libraries verifies it.',
    create:
      'Create one with curl, your URL in place of the example. Your URL must answer a GET by echoing its hub.challenge parameter; nothing is sent before. The answer holds the secret (whsec_…) that signs every delivery: keep it, it is shown only this once.',
    remove: 'To stop, send the URL and its secret:',
  },
  calendars: {
    intro:
      'Every announcement and each provider’s estimate, to subscribe to: copy a link’s address into your calendar app (“subscribe”, “from URL”).',
    everyProvider: 'All providers',
    tracker: 'Reminders before your own usage windows reset:',
  },
  terminal: {
    intro:
      'One line per provider, its fields separated by tabs: the provider, the status word, days since the last reset, the next estimate.',
    tmux: 'In a tmux status line, the status word:',
  },
};
