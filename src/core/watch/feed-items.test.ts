import { readFileSync } from 'node:fs';
import { parseFeed } from 'feedsmith';
import Parser from 'rss-parser';
import { describe, expect, it } from 'vitest';
import { FEED_RENDERERS } from '../render/feeds.ts';
import { makeEvent, NOW } from '../test-events.ts';
import { FeedParseError, feedItems } from './feed-items.ts';

/**
 * The watcher's feed reader, against feeds read by independent parsers (rss-parser for RSS and Atom, feedsmith
 * for JSON Feed) and against hand-written feeds of each format's corners.
 */

const FIXTURES = 'tests/fixtures/watch';
const fixture = (name: string) => readFileSync(`${FIXTURES}/${name}`, 'utf8');
const iso = (date: string | undefined) => (date === undefined ? null : new Date(date).toISOString());

describe('reading a feed', () => {
  it.each(['provider-a.rss', 'provider-c.atom'])('%s: the links and dates rss-parser reads', async (name) => {
    const reference = await new Parser().parseString(fixture(name));
    expect(feedItems(fixture(name)).map((item) => [item.link, item.publishedAt])).toEqual(
      reference.items.map((item) => [item.link, iso(item.isoDate)]),
    );
  });

  it('the JSON Feed fixture: the links and dates feedsmith reads', () => {
    const { feed } = parseFeed(fixture('provider-c.json')) as {
      feed: { items: { url: string; date_published: string }[] };
    };
    expect(feedItems(fixture('provider-c.json')).map((item) => [item.link, item.publishedAt])).toEqual(
      feed.items.map((item) => [item.url, iso(item.date_published)]),
    );
  });

  it.each(['rss', 'atom', 'json'] as const)('the board’s own %s feed: every post, with its link and time', (format) => {
    const events = [
      makeEvent({ id: 'feed-a', summary: 'Limits reset & back to full <for> everyone.' }),
      makeEvent({ id: 'feed-b', kind: 'tease', summary: '额度即将重置，敬请期待。' }),
    ];
    const document = FEED_RENDERERS[format]({
      events,
      provider: undefined,
      baseUrl: 'https://board.example',
      builtAt: NOW.toISOString(),
    });
    const items = feedItems(document);
    expect(items).toHaveLength(2);
    expect(items.map((item) => item.publishedAt)).toEqual(events.map((event) => event.announcedAt));
    expect(items[0]!.text).toContain('Limits reset & back to full <for> everyone.');
    expect(items[1]!.text).toContain('额度即将重置，敬请期待。');
  });

  it('reads RSS 2.0 with a body in CDATA, undeclared HTML entities, a Dublin Core date and an Atom link', () => {
    const [first, second] = feedItems(`<?xml version="1.0"?>
<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:atom="http://www.w3.org/2005/Atom"><channel>
  <item><title>Limits&nbsp;reset</title><link> https://posts.example/1 </link>
    <description><![CDATA[<p>We&rsquo;ve <b>reset</b> limits &amp; more.</p>]]></description>
    <dc:date>2026-11-19T16:05:00+01:00</dc:date></item>
  <item><atom:link href="https://posts.example/2"/><description>Heads up: a reset is coming</description></item>
</channel></rss>`);
    expect(first).toEqual({
      key: 'https://posts.example/1',
      link: 'https://posts.example/1',
      text: 'Limits\u00a0reset We’ve reset limits & more.'.replace('\u00a0', ' '),
      ownText: 'We’ve reset limits & more.',
      publishedAt: '2026-11-19T15:05:00.000Z',
    });
    expect(second).toMatchObject({
      link: 'https://posts.example/2',
      publishedAt: null,
      ownText: 'Heads up: a reset is coming',
    });
  });

  it('reads RSS 1.0 (RDF) and Atom with an alternate link, an HTML title and XHTML content', () => {
    const rdf =
      feedItems(`<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"
      xmlns:dc="http://purl.org/dc/elements/1.1/"><channel rdf:about="x"><title>t</title></channel>
      <item rdf:about="https://posts.example/r"><title>Reset</title><link>https://posts.example/r</link>
      <dc:date>2026-11-18T10:00:00Z</dc:date></item></rdf:RDF>`);
    expect(rdf).toEqual([
      {
        key: 'https://posts.example/r',
        link: 'https://posts.example/r',
        text: 'Reset',
        ownText: 'Reset',
        publishedAt: '2026-11-18T10:00:00.000Z',
      },
    ]);
    const atom = feedItems(`<feed xmlns="http://www.w3.org/2005/Atom"><title>t</title>
      <entry><id>tag:posts.example,2026:1</id><title type="html">Limits &lt;em&gt;reset&lt;/em&gt;</title>
        <link rel="self" href="https://posts.example/self"/><link rel="alternate" href="https://posts.example/a"/>
        <updated>2026-11-20T08:00:00Z</updated><published>2026-11-19T08:00:00Z</published>
        <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>All <b>reset</b>.</p></div></content></entry>
      <entry><id>tag:posts.example,2026:2</id><title>No link</title><updated>2026-11-20T09:00:00Z</updated></entry>
    </feed>`);
    expect(atom).toEqual([
      {
        key: 'https://posts.example/a',
        link: 'https://posts.example/a',
        text: 'Limits reset All reset.',
        ownText: 'All reset.',
        publishedAt: '2026-11-19T08:00:00.000Z',
      },
      {
        key: 'tag:posts.example,2026:2',
        link: null,
        text: 'No link',
        ownText: 'No link',
        publishedAt: '2026-11-20T09:00:00.000Z',
      },
    ]);
  });

  it.each([
    [
      'malformed XML',
      '<rss><channel><item><title>unclosed',
      'not well-formed XML at line 1, column 28 (an element is not closed)',
    ],
    ['an XML document that is no feed', '<html><body>Not found</body></html>', 'not a feed: an HTML page'],
    ['JSON that is no feed', '{"error": "not found"}', /^not a feed: a JSON document that is not a JSON Feed/],
    [
      'a JSON Feed without items',
      '{"version": "https://jsonfeed.org/version/1.1"}',
      'not a feed: a JSON Feed without an "items" list',
    ],
  ])('refuses %s with a reason', (_, document, reason) => {
    expect(() => feedItems(document)).toThrow(FeedParseError);
    expect(() => feedItems(document)).toThrow(reason);
  });

  describe('says why a document is no feed without its bytes (a page in place of a feed may hold anything)', () => {
    const SECRET = 'ghp_SECRETtoken0123456789abcdefABCDEF';
    const SCRIPT = '<script>alert(1)</script>';
    it.each([
      [
        'an unclosed element after a script',
        `<?xml version="1.0"?>\n<rss>\n  <channel>${SCRIPT}<item><title>${SECRET}`,
        'not well-formed XML at line 3, column 50 (an element is not closed)',
      ],
      [
        'an unclosed start tag named by the page',
        `<rss><channel>\n<${SECRET.replace(/[^A-Za-z]/g, '')} a="1"`,
        /^not well-formed XML at line 2, column \d+ \(a start tag is not closed\)$/,
      ],
      [
        'a repeated attribute',
        `<rss><channel><item ${SECRET.replace(/[^A-Za-z]/g, '')}="1" ${SECRET.replace(/[^A-Za-z]/g, '')}="2"/></channel></rss>`,
        /^not well-formed XML at line 1, column \d+ \(an attribute is repeated\)$/,
      ],
      [
        'an HTML page',
        `<!DOCTYPE html>\n<html><head>${SCRIPT}<meta content=${SECRET}></head></html>`,
        'not a feed: an HTML page',
      ],
      [
        'a root element of its own',
        `\n\n<${SECRET.replace(/[^A-Za-z]/g, '')}><item>${SCRIPT}</item></${SECRET.replace(/[^A-Za-z]/g, '')}>`,
        'not a feed: no <rss>, <rdf:RDF> or <feed> root element',
      ],
      ['JSON that is not valid', `{"token": "${SECRET}", ${SCRIPT}}`, /^not valid JSON( at line 1, column \d+)?$/],
      ['JSON cut short', `\n{"token": "${SECRET}",\n  "a": [`, /^not valid JSON( at line 3, column \d+)?$/],
      [
        'a JSON Feed with an item that is no object',
        `{"version": "https://jsonfeed.org/version/1.1", "items": ["${SECRET}", null]}`,
        'not a feed: a JSON Feed whose "items" are not all objects',
      ],
    ])('%s', (_, document, reason) => {
      let message = '';
      try {
        feedItems(document);
      } catch (error) {
        expect(error).toBeInstanceOf(FeedParseError);
        message = (error as Error).message;
      }
      expect(message).toMatch(reason);
      for (const bytes of [SECRET, SECRET.replace(/[^A-Za-z]/g, ''), 'script', 'alert', 'meta', 'token'])
        expect(message).not.toContain(bytes);
    });
  });

  it('expands no entity a feed declares for itself (no billion laughs, no external file)', () => {
    const items = feedItems(`<?xml version="1.0"?><!DOCTYPE rss [
      <!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
      <!ENTITY file SYSTEM "file:///etc/passwd">]>
      <rss version="2.0"><channel><item><title>&lol2; &file;</title><link>https://posts.example/x</link></item></channel></rss>`);
    expect(items[0]!.text).toBe('&lol2; &file;');
  });
});
