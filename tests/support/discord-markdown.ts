import { parse } from 'discord-markdown-parser';

/**
 * What Discord would make of a message's Markdown, read with a parser of Discord's own flavour
 * (discord-markdown-parser: simple-markdown with Discord's rules for mentions, spoilers, headers, subtext,
 * timestamps, emoji and masked links), in its "extended" form, the one for webhooks and embeds, where masked links
 * work. The parser has no rule for lists: `startsBlock` is a reference for the lines that start one (or a header or
 * a quote), written from Discord's article "Markdown Text 101".
 */

/** Posts that would be Markdown of their own in a Discord message, if their text were not escaped. */
export const HOSTILE_POSTS = [
  '[Open the file in the repository’s editor](https://evil.example/phish)',
  '[Open](<https://evil.example/phish>) and [x](https://evil.example/a_(b))',
  '@everyone @here limits are reset',
  'Hi <@123456789012345678>, <@!123456789012345678>, <@&123456789012345678> and <#123456789012345678>',
  '**bold** *italics* _italics_ __underline__ ~~strike~~ ***all*** ||spoiler||',
  '# header\n## smaller\n### smallest\n-# subtext',
  '- a list\n* a list\n+ a list\n1. numbered\n  - nested',
  '> a quote\n>>> a long quote',
  '```js\nalert(1)\n``` and `inline code`',
  '<https://evil.example/hidden> https://evil.example/bare http://evil.example/plain',
  'discord.gg/invite and evil.example/path',
  '<t:1700000000:R> <:custom:123456789012345678> <a:anim:123456789012345678> </command:123456789012345678>',
  '<id:customize> <id:browse>',
  '\\[escaped already](https://evil.example) \\\\[double](https://evil.example) \\*\\*not\\*\\*',
  // Zero-width and invisible characters between or inside the marks.
  '[Open\u200b](https://evil.example/zw) @\u200beveryone \u200b# not a header',
  '\u2060**bold**\u2060 \ufeff||spoiler|| h\u200bttps://evil.example',
  '*\u200b*bold*\u200b*',
  // Line breaks of every kind, each starting a line that could be Markdown.
  'first\r\n# header after CRLF\r- list after CR\n> quote after LF',
  '¯\\_(ツ)_/¯ 😀 :smile: a:b c.d e-f 1+1 (x) [y]',
] as const;

/** The posts above this parser reads as text even unescaped (no rule for invite links or server guide mentions). */
export const TEXT_TO_THIS_PARSER: ReadonlySet<string> = new Set([
  'discord.gg/invite and evil.example/path',
  '<id:customize> <id:browse>',
  '¯\\_(ツ)_/¯ 😀 :smile: a:b c.d e-f 1+1 (x) [y]',
]);

interface MarkdownNode {
  type: string;
  content?: unknown;
  [key: string]: unknown;
}

/** The node types that are text: everything else is a link, a mention, a format or a block. */
const TEXT_TYPES = new Set(['text', 'br', 'newline', 'twemoji']);

const parsed = (markdown: string) => parse(markdown, 'extended') as MarkdownNode[];

function nodesOf(nodes: readonly MarkdownNode[]): MarkdownNode[] {
  return nodes.flatMap((node) => [
    node,
    ...(Array.isArray(node.content) ? nodesOf(node.content as MarkdownNode[]) : []),
  ]);
}

/** Every node of the parse, depth first. */
export const discordNodes = (markdown: string): MarkdownNode[] => nodesOf(parsed(markdown));

/** The types of the nodes that are not text (`link`, `url`, `everyone`, `strong`, `heading`, …), in order. */
export const discordMarkupIn = (markdown: string): string[] =>
  discordNodes(markdown)
    .filter((node) => !TEXT_TYPES.has(node.type))
    .map((node) => node.type);

function shownOf(nodes: readonly MarkdownNode[]): string {
  return nodes
    .map((node) => {
      if (node.type === 'br' || node.type === 'newline') return '\n';
      if (node.type === 'twemoji') return String(node['name']);
      return typeof node.content === 'string' ? node.content : shownOf((node.content as MarkdownNode[]) ?? []);
    })
    .join('');
}

/** The text a reader sees, line breaks included. */
export const discordShown = (markdown: string): string => shownOf(parsed(markdown));

/** Whether a line starts a block in Discord: a header `#`, subtext `-#`, a list `-`, `*`, `+` or `1.`, a quote `>`. */
export const startsBlock = (line: string): boolean => /^\s*(#{1,3}\s|-#\s|[-*+]\s|\d+[.)]\s|>)/.test(line);
