import { describe, expect, it } from 'vitest';
import {
  discordMarkupIn,
  discordNodes,
  discordShown,
  HOSTILE_POSTS,
  startsBlock,
  TEXT_TO_THIS_PARSER,
} from '../../../tests/support/discord-markdown.ts';
import { discordText, discordUrl, jsonInCodeBlock } from './discord-text.ts';

/**
 * `discordText` against a Markdown parser of Discord's own flavour (tests/support/discord-markdown.ts): whatever a
 * post says, the parse of what the message carries is text and line breaks only, and reads as the post; and,
 * independently of that parser, no line starts a block and every mark of Discord's Markdown has its backslash.
 */

const lines = (text: string) => text.replace(/\r\n?/g, '\n');

/**
 * Every mark that means something wherever it stands (Discord's article: emphasis, spoilers, code, masked links,
 * mentions, quotes; and the `:` of a `scheme://`) is preceded by a backslash that is not itself escaped (an odd run
 * of backslashes).
 */
function everyMarkEscaped(escaped: string): boolean {
  for (const match of escaped.matchAll(/[*_~|`[\]<>@]|:(?=\/)/g)) {
    const before = /\\*$/.exec(escaped.slice(0, match.index))![0].length;
    if (before % 2 === 0) return false;
  }
  return true;
}

describe('discordText: a post shown in a Discord message', () => {
  it.each(HOSTILE_POSTS)('%j parses to text only, and reads as the post', (post) => {
    const escaped = discordText(post);
    expect(discordMarkupIn(escaped)).toEqual([]);
    expect(discordShown(escaped)).toBe(lines(post));
    // Unescaped, the same post is not text only: the corpus tests something.
    if (!TEXT_TO_THIS_PARSER.has(post))
      expect(discordMarkupIn(lines(post)).length > 0 || lines(post).split('\n').some(startsBlock)).toBe(true);
  });

  it.each(HOSTILE_POSTS)('%j starts no block on any line and leaves no mark unescaped', (post) => {
    const escaped = discordText(post);
    expect(escaped.split('\n').filter(startsBlock)).toEqual([]);
    expect(escaped).not.toContain('\r');
    expect(everyMarkEscaped(escaped)).toBe(true);
  });

  it('leaves what means nothing where it stands as it is: words, times, parentheses, other scripts', () => {
    for (const text of [
      'Limits reset 2x for everyone (weekly), 10:30 UTC. Next: 2026-06-15 - or sooner #1 + more.',
      '额度已重置。定于 2026年6月15日 10:30（UTC）',
    ])
      expect(discordText(text)).toBe(text);
  });
});

describe('discordUrl and jsonInCodeBlock', () => {
  it('a masked link to a URL with parentheses and angle brackets ends where the URL does', () => {
    const url = 'https://posts.example/a_(b)<c>';
    const [link] = discordNodes(`[label](${discordUrl(url)}) after`);
    expect(link).toMatchObject({ type: 'link', target: 'https://posts.example/a_%28b%29%3Cc%3E' });
    expect(new URL(discordUrl(url)).pathname).toBe('/a_%28b%29%3Cc%3E');
  });

  it('a JSON file keeps its value and cannot close the code block it is shown in', () => {
    const file = `${JSON.stringify({ summary: '```\n[phish](https://evil.example) `x`' }, null, 2)}\n`;
    const shownFile = jsonInCodeBlock(file);
    expect(JSON.parse(shownFile)).toEqual(JSON.parse(file));
    expect(shownFile).not.toContain('`');
    expect(discordMarkupIn(`\`\`\`json\n${shownFile}\`\`\``)).toEqual(['codeBlock']);
  });
});
