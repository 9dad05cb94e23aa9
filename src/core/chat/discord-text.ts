/**
 * Text inside a Discord message (Discord's help article "Markdown Text 101" and the developer documentation's
 * "Message Formatting"): `content` and an embed's `description` are Markdown, where a backslash before a symbol
 * shows the symbol itself. A text that is not ours (a post's summary) goes through `discordText`, which puts a
 * backslash before every character that gives Discord's Markdown a meaning:
 *
 * - anywhere: `\` itself (so that the text's own backslash cannot undo the one put before the next character);
 *   `*`, `_`, `~`, `|`, `` ` `` (bold, italics, underline, strikethrough, spoilers, code spans and blocks); `[` and
 *   `]` (masked links); `<`, `>` and `@` (mentions of users, roles and channels `<@id>`, `<@&id>`, `<#id>`,
 *   `@everyone`, `@here`, custom emoji, timestamps, slash commands, `<https://…>`, and block quotes); and a `:`
 *   before `/`, so that no `https://` is left whole for the client to turn into a link;
 * - at the start of a line (after spaces or invisible characters): `#` (headers), `-` (lists and subtext `-#`),
 *   `+` (lists), and the `.` or `)` after a number (numbered lists); `*` and `>` are escaped anywhere already.
 *
 * Line breaks are kept, written `\n` (a lone CR would start a line after the quote mark a message puts before each
 * line). Pings are also turned off for the whole message by `allowed_mentions: {parse: []}`, which each body sets;
 * the escaping keeps a mention from even showing as one.
 */
const ANYWHERE = /[\\*_~|`[\]<>@]|:(?=\/)/g;
/** Spaces and the invisible characters a line may start with, a line break excepted. */
const LINE_INDENT = '(?:(?!\\n)[\\s\\u200b-\\u200d\\u2060\\ufeff])*';
const LINE_MARK = new RegExp(`^(${LINE_INDENT})([#+-])`, 'gm');
const LINE_NUMBER = new RegExp(`^(${LINE_INDENT}\\d+)([.)])`, 'gm');

export const discordText = (text: string): string =>
  text
    .replace(/\r\n?/g, '\n')
    .replace(ANYWHERE, (character) => `\\${character}`)
    .replace(LINE_MARK, '$1\\$2')
    .replace(LINE_NUMBER, '$1\\$2');

/**
 * A URL as the target of a masked link `[label](url)` or inside `<url>`: `(`, `)`, `<` and `>` percent-encoded (the
 * same URL), so that the link ends where Discord looks for its end.
 */
export const discordUrl = (url: string): string =>
  url.replaceAll('(', '%28').replaceAll(')', '%29').replaceAll('<', '%3C').replaceAll('>', '%3E');

/** A link of ours: `[label](url)`, the label being words of ours (no brackets), the URL made safe. */
export const discordLink = (url: string, label: string): string => `[${label}](${discordUrl(url)})`;

/**
 * A JSON file inside a code block (```json … ```), where no escape works: a backtick, which only a JSON string can
 * hold, is written `\u0060`, the same JSON value, so that the text cannot close the block.
 */
export const jsonInCodeBlock = (json: string): string => json.replaceAll('`', '\\u0060');
