import { parseXml, XmlElement, type XmlNode } from '@rgrove/parse-xml';
import { describe, expect, it } from 'vitest';
import { validateEventFiles } from '../content/validate-event-files.ts';
import { makeEvent, NOW } from '../test-events.ts';
import { PROVIDERS } from '../vocabulary.ts';
import { onlyXmlCharacters, renderAtomFeed, renderRssFeed } from './feeds.ts';
import { HOSTILE_ACCOUNT, HOSTILE_SOURCE_URL, HOSTILE_SUMMARIES, hostileEvents } from './hostile-events.ts';
import { renderSitemap } from './sitemap.ts';
import { trickyEvents } from './tricky-events.ts';

/**
 * Every XML document the service writes parses in a strict XML parser whatever valid events hold (decisions.md, "One
 * honest answer"). @rgrove/parse-xml refuses what XML 1.0 forbids (a control character, U+FFFE, U+FFFF, a lone
 * surrogate, a reference to one, an undeclared entity) rather than reading past it.
 */

const BASE = 'https://board.example';
const BUILT_AT = '2026-06-15T12:00:00.000Z';

const elements = (node: XmlNode, name: string): XmlElement[] =>
  node instanceof XmlElement
    ? [...(node.name === name ? [node] : []), ...node.children.flatMap((child) => elements(child, name))]
    : 'children' in node
      ? (node.children as XmlNode[]).flatMap((child) => elements(child, name))
      : [];

/** The events, through validation first: only what a file could publish. */
function validEvents() {
  const events = [...hostileEvents(), ...trickyEvents()];
  const result = validateEventFiles(
    events.map((event) => ({ path: `${event.provider}/${event.id}.json`, text: JSON.stringify(event) })),
    NOW,
  );
  expect(result.problems).toEqual([]);
  return result.events.sort((a, b) => (a.announcedAt < b.announcedAt ? 1 : -1));
}

const RENDERERS = { rss: renderRssFeed, atom: renderAtomFeed } as const;

describe('the feeds in a strict XML parser', () => {
  const events = validEvents();

  it.each(
    (['rss', 'atom'] as const).flatMap((format) => [undefined, ...PROVIDERS].map((provider) => [format, provider])),
  )('%s of %s parses', (format, provider) => {
    const xml = RENDERERS[format as 'rss' | 'atom']({
      events,
      provider: provider as (typeof PROVIDERS)[number] | undefined,
      baseUrl: BASE,
      builtAt: BUILT_AT,
    });
    expect(() => parseXml(xml)).not.toThrow();
  });

  it('RSS keeps markup, entity look-alikes, the account and the URL as text', () => {
    const document = parseXml(renderRssFeed({ events, provider: undefined, baseUrl: BASE, builtAt: BUILT_AT }));
    const items = elements(document, 'item');
    const item = (id: string) => items.find((each) => elements(each, 'link')[0]!.text.endsWith(`#event-${id}`))!;
    const description = (id: string) => elements(item(id), 'description')[0]!.text.trim();
    expect(description('hostile-markup')).toBe(
      '<p>&lt;![CDATA[x]]&gt; ]]&gt; &lt;!-- c --&gt; &lt;?xml version=&quot;1.0&quot;?&gt; &lt;!DOCTYPE x [&lt;!ENTITY e &quot;boom&quot;&gt;]&gt; &amp;e; &lt;a href=&quot;javascript:alert(1)&quot;&gt;x&lt;/a&gt;</p>' +
        '<p><a href="https://posts.provider-c.example/hostile-markup">Original post by provider_c_team</a></p>',
    );
    expect(description('hostile-entities')).toBe(
      '<p>&amp;amp; &amp;lt; &amp;#0; &amp;#x1; &amp;#xFFFF; &amp;#xD800; &amp;nbsp; &amp;bogus; &amp;; &amp; x</p>' +
        '<p><a href="https://posts.provider-a.example/hostile-entities">Original post by provider_a_team</a></p>',
    );
    expect(description('hostile-astral')).toContain(`<p>${HOSTILE_SUMMARIES.astral}</p>`);
    expect(description('hostile-rightToLeft')).toContain(`<p>${HOSTILE_SUMMARIES.rightToLeft}</p>`);
    expect(description('hostile-longest')).toContain(`<p>${'&lt;&amp;&gt;&quot;🚀'.repeat(56)}</p>`);
    // An XML parser reads every CRLF and lone CR as LF (XML 1.0 §2.11): the lines stay, as lines.
    expect(description('hostile-formulaEveryLine')).toContain(
      '<p>=1+1\n+SUM(A1)\n-2\n@cmd\n\n=after a CR\n\n=after a blank line</p>',
    );
    const source = elements(item('hostile-formulaSecondLine'), 'source')[0]!;
    expect(source.attributes['url']).toBe(HOSTILE_SOURCE_URL);
    expect(source.text.trim()).toBe(HOSTILE_ACCOUNT);
  });

  it('Atom keeps them as text too', () => {
    const document = parseXml(renderAtomFeed({ events, provider: undefined, baseUrl: BASE, builtAt: BUILT_AT }));
    const entry = elements(document, 'entry').find(
      (each) => elements(each, 'id')[0]!.text === `${BASE}/provider_a#event-hostile-formulaSecondLine`,
    )!;
    const via = elements(entry, 'link').find((link) => link.attributes['rel'] === 'via')!;
    expect(via.attributes).toEqual({ href: HOSTILE_SOURCE_URL, rel: 'via', title: HOSTILE_ACCOUNT });
    expect(elements(entry, 'summary')[0]!.text.trim()).toBe(
      'Limits reset for everyone.\n=HYPERLINK(&quot;https://evil.example&quot;,&quot;details&quot;)',
    );
  });
});

describe('defence in depth: what XML forbids never reaches a feed', () => {
  it('onlyXmlCharacters writes each character outside XML 1.0 as U+FFFD and keeps the rest', () => {
    expect(
      onlyXmlCharacters('a\u0000\t\n\r\u001F \uD7FF\uD800\uE000\uFFFD\uFFFE\uFFFF\u{10000}\u{10FFFF}\uDC00\u0085'),
    ).toBe('a\uFFFD\t\n\r\uFFFD \uD7FF\uFFFD\uE000\uFFFD\uFFFD\uFFFD\u{10000}\u{10FFFF}\uFFFD\u0085');
  });

  // Events validation would refuse, handed to the renderers directly: as a file edited after its check would be.
  const refused = makeEvent({
    id: 'refused',
    summary: 'a\u0000b\uFFFFc\uD800d\u0008e',
    sourceAccount: 'acct\u0001\uFFFE',
    sourceUrl: 'https://posts.provider-a.example/\uFFFF',
  });

  it.each(['rss', 'atom'] as const)('%s still parses, with U+FFFD where they were', (format) => {
    const xml = RENDERERS[format]({ events: [refused], provider: undefined, baseUrl: BASE, builtAt: BUILT_AT });
    const document = parseXml(xml);
    const text = elements(document, format === 'rss' ? 'description' : 'content')
      .map((element) => element.text)
      .join('');
    expect(text).toContain('<p>a\uFFFDb\uFFFDc\uFFFDd\uFFFDe</p>');
    expect(text).toContain('Original post by acct\uFFFD\uFFFD</a>');
  });
});

describe('the sitemap in a strict XML parser', () => {
  it('parses, and escapes the base URL it is given', () => {
    expect(() => parseXml(renderSitemap(BASE))).not.toThrow();
    const document = parseXml(renderSitemap('https://board.example/a&b<c'));
    expect(elements(document, 'loc')[0]!.text).toBe('https://board.example/a&b<c/');
    expect(elements(document, 'xhtml:link')[0]!.attributes['href']).toBe('https://board.example/a&b<c/');
  });
});
