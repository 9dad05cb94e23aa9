import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Event } from '../src/core/schemas.ts';
import { launchSharedChromium, type SharedChromium } from './support/browser.ts';
import { publishedFromContent } from './support/published.ts';
import { SERVED_REPOSITORY_URL } from './support/served-build.ts';

/**
 * What a reader sees of two small features, in Chromium, on the served build (REPOSITORY_URL set by the served
 * build): the "Report a problem with this event" link under every event of the board and the provider pages, in
 * both languages, and the badge's embed snippets on the provider pages. Without JavaScript, as a reader without it
 * gets them, and at 320 px; the copy buttons, the one part that needs a script, with JavaScript.
 */

const baseUrl = inject('baseUrl');
const REPORT_TEXT = { en: 'Report a problem with this event', zh: '报告此公告的问题' };

let withoutScript: BrowserContext;
let withScript: BrowserContext;
let published: Event[];

/** One Chromium, a context each for JavaScript off and on (a launch each cost a second of CPU). */
let chromium: SharedChromium;

beforeAll(async () => {
  chromium = await launchSharedChromium();
  [withoutScript, withScript] = await Promise.all([
    chromium.newContext({ javaScriptEnabled: false }),
    chromium.newContext({ permissions: ['clipboard-read', 'clipboard-write'] }),
  ]);
  published = (await publishedFromContent()).events;
});
// Closing the browser closes its contexts.
afterAll(async () => {
  await chromium?.close();
});

async function open(context: BrowserContext, path: string, width = 1280): Promise<Page> {
  const page = await context.newPage();
  await page.setViewportSize({ width, height: 800 });
  const response = await page.goto(`${baseUrl}${path}`);
  expect(response?.status(), path).toBe(200);
  return page;
}

/** Each event item of the page: its id (from its permalink) and its report link, as the page has them. */
async function reportLinks(page: Page) {
  return page.locator('ol.events > li').evaluateAll((items) =>
    items.map((item) => {
      const permalink = [...item.querySelectorAll('a')].find((a) => a.href.includes('#event-'));
      const report = [...item.querySelectorAll('a')].filter((a) => a.href.includes('/issues/new?'));
      return {
        id: permalink === undefined ? null : decodeURIComponent(new URL(permalink.href).hash.slice('#event-'.length)),
        reports: report.map((a) => ({ href: a.getAttribute('href'), text: a.textContent?.trim() })),
      };
    }),
  );
}

describe('the report link under each event', () => {
  it.each([
    ['en', '/provider_a'],
    ['zh', '/zh/provider_a'],
  ] as const)('opens the wrong-event form filled in for an event of the provider page (%s)', async (locale, path) => {
    const page = await open(withoutScript, path);
    const link = page.locator('#event-1843001759511100472 a[href*="/issues/new?"]');
    expect(await link.textContent()).toBe(REPORT_TEXT[locale]);
    // Written out by hand from the event file (tests/fixtures/served/events/provider_a/1843001759511100472.json):
    // its summary is cut after 50 characters, at "from ", with "…".
    expect(await link.getAttribute('href')).toBe(
      `${SERVED_REPOSITORY_URL}/issues/new?template=wrong-event.yml` +
        '&title=%5Bwrong%20event%5D%201843001759511100472%3A%20Limits%20are%20reset%3A%20every%20account%20starts%20fresh%20from%E2%80%A6' +
        '&event-id=1843001759511100472' +
        `&page-url=${encodeURIComponent(baseUrl)}%2Fprovider_a%23event-1843001759511100472` +
        '&source-url=https%3A%2F%2Fposts.provider-a.example%2F%40provider_a_eng%2F1843001759511100472',
    );
    await page.close();
  });

  it.each([
    ['en', '/'],
    ['zh', '/zh'],
    ['en', '/provider_b'],
    ['zh', '/zh/provider_c'],
  ] as const)('is under every event of %s %s, with that event’s id, page and post', async (locale, path) => {
    const page = await open(withoutScript, path);
    const items = await reportLinks(page);
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) {
      const event = published.find((candidate) => candidate.id === item.id);
      expect(event, `the event ${item.id} is published`).toBeDefined();
      expect(item.reports).toHaveLength(1);
      const [report] = item.reports;
      expect(report?.text).toBe(REPORT_TEXT[locale]);
      const url = new URL(report!.href!);
      expect(`${url.origin}${url.pathname}`).toBe(`${SERVED_REPOSITORY_URL}/issues/new`);
      expect(Object.fromEntries(url.searchParams)).toEqual({
        template: 'wrong-event.yml',
        title: expect.stringMatching(new RegExp(`^\\[wrong event\\] ${event!.id}: `)),
        'event-id': event!.id,
        'page-url': `${baseUrl}/${event!.provider}#event-${event!.id}`,
        'source-url': event!.sourceUrl,
      });
    }
    await page.close();
  });

  it.each(['/provider_a', '/zh/provider_a', '/'])('fits a 320 px phone on %s', async (path) => {
    const page = await open(withoutScript, path, 320);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    const rights = await page
      .locator('ol.events a[href*="/issues/new?"]')
      .evaluateAll((links) => links.map((link) => link.getBoundingClientRect().right));
    expect(rights.length).toBeGreaterThan(0);
    for (const right of rights) expect(right).toBeLessThanOrEqual(320);
    await page.close();
  });
});

describe('the badge embed snippets on the provider page', () => {
  const SNIPPETS = {
    '/provider_a': {
      markdown: `[![Provider A status](${baseUrl}/badge/provider_a.svg)](${baseUrl}/provider_a)`,
      html: `<a href="${baseUrl}/provider_a"><img src="${baseUrl}/badge/provider_a.svg" alt="Provider A status"></a>`,
    },
    '/zh/provider_b': {
      markdown: `[![供应商 B 状态](${baseUrl}/badge/provider_b.svg)](${baseUrl}/zh/provider_b)`,
      html: `<a href="${baseUrl}/zh/provider_b"><img src="${baseUrl}/badge/provider_b.svg" alt="供应商 B 状态"></a>`,
    },
  };

  it.each(Object.entries(SNIPPETS))(
    '%s shows both, by absolute URLs, beside the badge, at 320 px without sideways scrolling',
    async (path, expected) => {
      const page = await open(withoutScript, path, 320);
      const embed = page.locator('.feeds li.badge-embed');
      expect(await embed.locator('img').getAttribute('src')).toMatch(/^\/badge\/provider_[ab]\.svg$/);
      expect(await embed.locator('[data-embed="markdown"] pre').textContent()).toBe(expected.markdown);
      expect(await embed.locator('[data-embed="html"] pre').textContent()).toBe(expected.html);
      // Without JavaScript there is nothing to copy with: the buttons stay hidden, the text is there to select.
      expect(await embed.locator('button').evaluateAll((buttons) => buttons.map((b) => b.checkVisibility()))).toEqual([
        false,
        false,
      ]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
      const boxes = await embed
        .locator('pre')
        .evaluateAll((pres) =>
          pres.map((pre) => ({ right: pre.getBoundingClientRect().right, fits: pre.scrollWidth <= pre.clientWidth })),
        );
      for (const box of boxes)
        expect(box).toEqual({ right: expect.toSatisfy((right: number) => right <= 320), fits: true });
      await page.close();
    },
  );

  it('with JavaScript, each snippet has a Copy button that copies it', async () => {
    const page = await open(withScript, '/zh/provider_b', 320);
    const figure = page.locator('.badge-embed [data-embed="html"]');
    const button = figure.getByRole('button', { name: '复制 HTML' });
    await expect.poll(() => button.isVisible()).toBe(true);
    await button.click();
    await expect.poll(() => figure.locator('[data-copy-status]').textContent()).toBe('已复制。');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(SNIPPETS['/zh/provider_b'].html);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await page.close();
  });
});
