import { describe, expect, it } from 'vitest';
import { badgeEmbed, badgeEmbedSnippets } from './badge-embed.ts';

describe('the badge embed snippets', () => {
  it('link the badge to the provider page by absolute URLs, in English', () => {
    expect(badgeEmbedSnippets('https://board.example', 'provider_a', 'en')).toEqual({
      markdown: '[![Provider A status](https://board.example/badge/provider_a.svg)](https://board.example/provider_a)',
      html: '<a href="https://board.example/provider_a"><img src="https://board.example/badge/provider_a.svg" alt="Provider A status"></a>',
    });
  });

  it('link the Chinese page with Chinese alternative text, from the Chinese page', () => {
    expect(badgeEmbedSnippets('https://board.example', 'provider_c', 'zh')).toEqual({
      markdown: '[![供应商 C 状态](https://board.example/badge/provider_c.svg)](https://board.example/zh/provider_c)',
      html: '<a href="https://board.example/zh/provider_c"><img src="https://board.example/badge/provider_c.svg" alt="供应商 C 状态"></a>',
    });
  });

  it('escape what would end the alternative text, the link or the attribute', () => {
    expect(
      badgeEmbed({
        pageUrl: 'https://host.example/a (b)<c>',
        imageUrl: 'https://host.example/x"y&z.svg',
        alt: 'A] [b* _c_ `d` <e> \\ "f" & g',
      }),
    ).toEqual({
      markdown:
        '[![A\\] \\[b\\* \\_c\\_ \\`d\\` \\<e\\> \\\\ "f" & g](https://host.example/x"y&z.svg)](https://host.example/a%20%28b%29%3Cc%3E)',
      html: '<a href="https://host.example/a (b)&lt;c&gt;"><img src="https://host.example/x&quot;y&amp;z.svg" alt="A] [b* _c_ `d` &lt;e&gt; \\ &quot;f&quot; &amp; g"></a>',
    });
  });
});
