/**
 * The one message a Discord or Slack channel is sent when its webhook is connected (`connectedMessage`,
 * src/core/chat/message.ts): what will be posted there, and how to stop. Plain data; `{name}` is a placeholder:
 * `{service}` the site's name, `{providers}` and `{kinds}` the choices (joined by `listSeparator`), `{board}` a link
 * whose text is `board`, to "Notify me" on the board.
 */
export const chatConnected = {
  title: 'Connected to {service}',
  what: 'Each new announcement of {providers} will be posted here, in English, with a link to it on the board and to the original post. Kinds: {kinds}.',
  stop: 'To stop: “Stop posting” with this webhook’s URL under “Notify me” on {board}, or delete the webhook.',
  board: 'the board',
  listSeparator: ', ',
};
