import { describe, expect, inject, it } from 'vitest';

/**
 * The served fixture carries the sample marker (tests/fixtures/served/dataset.json), as the shipped sample
 * set does: every page says the data is fictional, so do the Markdown mirrors, and every response, made
 * by the worker or served as a static file, carries `X-Sample-Data: true`. (tests/real-data.test.ts shows
 * the opposite for real data.)
 */

const baseUrl = inject('baseUrl');

const ENGLISH_NOTICE =
  /<p class="sample-notice" role="note" data-sample-notice>Sample data: every event on this site is fictional[^<]*<\/p>/;
const CHINESE_NOTICE =
  /<p class="sample-notice" role="note" data-sample-notice>示例数据：本站的所有公告都是虚构的[^<]*<\/p>/;

describe('sample data says so', () => {
  it.each([
    ['/', ENGLISH_NOTICE],
    ['/provider_a', ENGLISH_NOTICE],
    ['/tracker', ENGLISH_NOTICE],
    ['/about', ENGLISH_NOTICE],
    ['/api', ENGLISH_NOTICE],
    ['/no-such-page', ENGLISH_NOTICE],
    ['/zh', CHINESE_NOTICE],
    ['/zh/provider_c', CHINESE_NOTICE],
    ['/zh/tracker', CHINESE_NOTICE],
    ['/zh/about', CHINESE_NOTICE],
    ['/zh/api', CHINESE_NOTICE],
  ])('on the page %s, in its language', async (page, notice) => {
    const response = await fetch(`${baseUrl}${page}`);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).toMatch(notice);
  });

  it('in the Markdown mirrors, right under the title', async () => {
    const english = await (await fetch(`${baseUrl}/index.md`)).text();
    const chinese = await (await fetch(`${baseUrl}/zh/index.md`)).text();
    expect(english.split('\n')[2]).toMatch(/^\*\*Sample data: every event on this site is fictional/);
    expect(chinese.split('\n')[2]).toMatch(/^\*\*示例数据：本站的所有公告都是虚构的/);
  });

  it('in the board summary MCP gives agents', async () => {
    const response = await fetch(`${baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: `${baseUrl}/index.md` } }),
    });
    const body = (await response.json()) as { result: { contents: { text: string }[] } };
    expect(body.result.contents[0]!.text.split('\n')[2]).toMatch(
      /^\*\*Sample data: every event on this site is fictional/,
    );
  });

  it('in an X-Sample-Data header on every response, from the worker and from static files', async () => {
    const home = await (await fetch(`${baseUrl}/`)).text();
    const stylesheet = /href="(\/_astro\/[^"]+\.css)"/.exec(home)?.[1];
    expect(stylesheet).toBeDefined();
    const requests: [string, RequestInit?][] = [
      ['/'],
      ['/zh/about'],
      ['/no-such-page'],
      ['/index.md'],
      ['/api/status'],
      ['/api/timeline'],
      ['/api/timeline?provider=nope'],
      ['/api/timeline.csv'],
      ['/feed.xml'],
      ['/calendar.ics'],
      ['/badge/provider_a.svg'],
      ['/openapi.json'],
      ['/llms.txt'],
      ['/favicon.svg'],
      ['/og.png'],
      ['/data/board.json'],
      [stylesheet!],
      [
        '/api/status',
        { method: 'OPTIONS', headers: { Origin: 'https://elsewhere.example', 'Access-Control-Request-Method': 'GET' } },
      ],
      [
        '/mcp',
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
          body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
        },
      ],
    ];
    const answers = await Promise.all(
      requests.map(async ([path, init]) => {
        const response = await fetch(`${baseUrl}${path}`, init);
        await response.arrayBuffer();
        return `${init?.method ?? 'GET'} ${path} ${response.status}: ${response.headers.get('X-Sample-Data')}`;
      }),
    );
    expect(answers.filter((answer) => !answer.endsWith(': true'))).toEqual([]);
  });
});
