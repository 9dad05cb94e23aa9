import { mkdir } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { deriveBoard } from '../src/core/board.ts';
import { forecastFromHistory } from '../src/core/forecast/rule.ts';
import { forecastSentence } from '../src/core/forecast/words.ts';
import { TRANSLATIONS } from '../src/core/i18n/index.ts';
import type { PublishedEvents } from '../src/core/dataset.ts';
import { publishedFromContent } from './support/published.ts';
import { PROVIDERS } from '../src/core/vocabulary.ts';
import { STATUS_LABELS } from '../src/core/i18n/labels.ts';
import { axeViolations, RULES_A_COLOUR_SCHEME_CHANGES } from './support/axe.ts';
import { launchChromium, watchPageErrors } from './support/browser.ts';

const baseUrl = inject('baseUrl');
/** Screenshots for people: CI keeps this folder as an artifact; docs/screenshots holds copies for the README. */
const SCREENSHOT_DIR = 'test-artifacts/screenshots';

const PAGES = ['/', ...PROVIDERS.map((provider) => `/${provider}`), '/tracker', '/api', '/about'];
const BOTH_LANGUAGES = PAGES.flatMap((path) => [path, path === '/' ? '/zh' : `/zh${path}`]);

let browser: BrowserContext;
let dataset: PublishedEvents;

beforeAll(async () => {
  browser = await launchChromium({ timezoneId: 'Asia/Tokyo' });
  dataset = await publishedFromContent();
  await mkdir(SCREENSHOT_DIR, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
});

/** Opens a page and records every console error and uncaught exception on it. */
async function open(path: string, options: { width?: number; colorScheme?: 'light' | 'dark' } = {}) {
  const page = await browser.newPage();
  await page.setViewportSize({ width: options.width ?? 1280, height: 900 });
  await page.emulateMedia({ colorScheme: options.colorScheme ?? 'light' });
  const { errors } = watchPageErrors(page);
  const response = await page.goto(`${baseUrl}${path}`);
  return { page, response, errors };
}

/**
 * The pages at 320 × 900, each loaded once and read by every test that only reads a phone's page (the axe check, the
 * sideways scroll, the chart labels, the forecast's charts): a load is most of such a test's cost, and none of them
 * changes the page (axe leaves the document as it found it). Closed with the browser.
 */
const phonePages = new Map<string, ReturnType<typeof open>>();
function phonePage(path: string) {
  let opened = phonePages.get(path);
  if (opened === undefined) {
    opened = open(path, { width: 320 });
    phonePages.set(path, opened);
  }
  return opened;
}

describe('every page, in both languages', () => {
  /** Each page as the light test left it, for the JavaScript test after it (loaded again if run alone). */
  const desktopPages = new Map<string, ReturnType<typeof open>>();

  it.each(BOTH_LANGUAGES)(
    '%s renders without console errors (CSP violations included) and without axe violations, light and dark',
    async (path) => {
      const opened = open(path, { colorScheme: 'light' });
      desktopPages.set(path, opened);
      const { page, response, errors } = await opened;
      expect(response?.status()).toBe(200);
      expect(errors).toEqual([]);
      expect(await axeViolations(page)).toEqual([]);
      // The same document in dark: the colour scheme is CSS alone (no script of the pages reads it), so switching it
      // on the loaded page draws what a dark load draws, for a page load less. Only the rules a colour scheme can
      // change run again: the markup is the same in both (half the time of the page checks went to repeating it).
      await page.emulateMedia({ colorScheme: 'dark' });
      expect(await axeViolations(page, { rules: RULES_A_COLOUR_SCHEME_CHANGES })).toEqual([]);
      // Nothing axe did was refused by the page's CSP or failed either.
      expect(errors).toEqual([]);
    },
  );

  it.each(BOTH_LANGUAGES)('%s ships under 10 KB of compressed JavaScript', async (path) => {
    const { page } = await (desktopPages.get(path) ?? open(path));
    desktopPages.delete(path);
    const sources = await page.$$eval('script[src]', (scripts) =>
      scripts.map((script) => (script as HTMLScriptElement).src),
    );
    expect(await page.$$eval('script:not([src])', (scripts) => scripts.length)).toBe(0);
    let compressed = 0;
    for (const source of sources) compressed += gzipSync(Buffer.from(await (await fetch(source)).arrayBuffer())).length;
    expect(compressed).toBeLessThan(10 * 1024);
    await page.close();
  });

  it.each(BOTH_LANGUAGES)(
    '%s fits a 320 px phone without sideways scrolling of the page, and without axe violations there',
    async (path) => {
      const { page, response, errors } = await phonePage(path);
      expect(response?.status()).toBe(200);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
      // A phone's layout has its own regions (a chart that scrolls inside its frame must be reachable by keyboard).
      expect(await axeViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
    },
  );

  it('links each page to its other language, with hreflang, and the switch works', async () => {
    const { page } = await open('/provider_a');
    expect(await page.getAttribute('link[rel=alternate][hreflang="zh-Hans"]', 'href')).toBe(`${baseUrl}/zh/provider_a`);
    expect(await page.getAttribute('link[rel=alternate][hreflang="en"]', 'href')).toBe(`${baseUrl}/provider_a`);
    await Promise.all([page.waitForURL(`${baseUrl}/zh/provider_a`), page.click('[data-language-switch]')]);
    expect(await page.getAttribute('html', 'lang')).toBe('zh-Hans');
    await Promise.all([page.waitForURL(`${baseUrl}/provider_a`), page.click('[data-language-switch]')]);
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    await page.close();
  });

  it('carries social preview metadata with an image that exists', async () => {
    const { page } = await open('/');
    const image = await page.getAttribute('meta[property="og:image"]', 'content');
    expect(await page.getAttribute('meta[property="og:title"]', 'content')).toBe('Departures Board');
    expect(await page.getAttribute('meta[property="og:description"]', 'content')).toBeTruthy();
    const png = await fetch(image!);
    expect(png.headers.get('content-type')).toBe('image/png');
    await page.close();
  });
});

describe('the board', () => {
  it('shows the status word the rules give for the published data', async () => {
    const expected = deriveBoard(dataset.events, new Date());
    for (const [path, locale] of [
      ['/', 'en'],
      ['/zh', 'zh'],
    ] as const) {
      const { page } = await open(path);
      for (const row of expected.providers) {
        const status = page.locator(`tr[data-provider="${row.provider}"] .status`);
        expect(await status.getAttribute('data-status')).toBe(row.status);
        expect((await status.textContent())?.trim()).toBe(STATUS_LABELS[locale][row.status]);
      }
      await page.close();
    }
  });

  it('says a passed estimate passed, with its time, never "any time now" or "late"', async () => {
    const now = Date.now();
    const passed = deriveBoard(dataset.events, new Date(now)).providers.filter(
      (row) => row.nextEstimate !== null && Date.parse(row.nextEstimate) <= now,
    );
    expect(passed.length).toBeGreaterThan(0);
    const { page } = await open('/');
    for (const row of passed) {
      const line = page.locator(`tr[data-provider="${row.provider}"] [data-estimate-line]`);
      expect(await line.textContent()).toContain('Cadence estimate passed');
      expect(await line.locator('time').getAttribute('datetime')).toBe(row.nextEstimate);
      const cell = (await page.textContent(`tr[data-provider="${row.provider}"] [data-estimate]`)) ?? '';
      expect(cell).not.toMatch(/any time now|\blate\b/i);
    }
    await page.close();
  });

  it('shows times in the viewer’s zone with the zone named, and UTC on hover', async () => {
    const { page } = await open('/');
    const first = page.locator('time[data-local]').first();
    expect(await first.textContent()).toMatch(/GMT\+9/);
    expect(await first.getAttribute('title')).toMatch(/ UTC$/);
    await page.close();
  });

  it('links the latest announcements to their original posts and permanent anchors', async () => {
    const { page } = await open('/');
    const hrefs = await page.$$eval('ol.events a', (links) => links.map((link) => (link as HTMLAnchorElement).href));
    for (const event of dataset.events.slice(0, 10)) {
      expect(hrefs).toContain(new URL(event.sourceUrl).href);
      expect(hrefs).toContain(`${baseUrl}/${event.provider}#event-${event.id}`);
    }
    await page.close();
  });
});

describe('provider pages', () => {
  it.each(PROVIDERS)('/%s has an anchor for every event, newest first, that scrolls into view', async (provider) => {
    const events = dataset.events.filter((event) => event.provider === provider);
    const { page } = await open(`/${provider}`);
    const ids = await page.$$eval('ol.events li[id^="event-"]', (items) => items.map((item) => item.id));
    expect(ids).toEqual(events.map((event) => `event-${event.id}`));
    const oldest = events.at(-1)!;
    await page.goto(`${baseUrl}/${provider}#event-${oldest.id}`);
    await expect
      .poll(() =>
        page.locator(`#event-${oldest.id}`).evaluate((element) => {
          const box = element.getBoundingClientRect();
          return box.top >= 0 && box.top < window.innerHeight;
        }),
      )
      .toBe(true);
    await page.close();
  });

  it.each(PROVIDERS)('/%s advertises its own feeds', async (provider) => {
    const { page } = await open(`/${provider}`);
    expect(await page.getAttribute('link[rel=alternate][type="application/rss+xml"]', 'href')).toBe(
      `${baseUrl}/feed.xml?provider=${provider}`,
    );
    expect(await page.getAttribute('link[rel=alternate][type="application/atom+xml"]', 'href')).toBe(
      `${baseUrl}/feed.atom?provider=${provider}`,
    );
    expect(await page.getAttribute('link[rel=alternate][type="application/feed+json"]', 'href')).toBe(
      `${baseUrl}/feed.json?provider=${provider}`,
    );
    await page.close();
  });

  it('draws its charts as inline SVG with the local hours filled in by the script', async () => {
    const { page } = await open('/provider_a');
    // The hour chart is drawn twice, across for wide screens and one row per hour for phones; one shows.
    expect(await page.locator('figure.chart[data-chart="hours"] svg.hours-wide').count()).toBe(1);
    expect(await page.locator('figure.chart[data-chart="hours"] svg.hours-tall').count()).toBe(1);
    expect(await page.locator('figure.chart[data-chart="gaps"] svg').count()).toBe(1);
    expect(await page.locator('figure.chart .median').count()).toBe(1);
    expect(await page.locator('figure.chart .overdue').count()).toBe(1);
    // Tokyo is UTC+9: the bar of 00:00 UTC sits at 9 local.
    expect(await page.textContent('text[data-local-hour-of="0"]')).toBe('9');
    await page.close();
  });

  it('an unknown provider is a 404 page', async () => {
    const { response } = await open('/provider_q');
    expect(response?.status()).toBe(404);
  });
});

describe('the forecast', () => {
  /** The sentences the rule gives just before and just after a page is rendered: the page shows one of them. */
  const sentencesAround = (provider: (typeof PROVIDERS)[number], locale: 'en' | 'zh', times: Date[]) =>
    times.map((time) => forecastSentence(forecastFromHistory(provider, dataset.events, time), locale));

  it('gives each provider one plain sentence on the board, in both languages', async () => {
    for (const [path, locale] of [
      ['/', 'en'],
      ['/zh', 'zh'],
    ] as const) {
      const before = new Date();
      const { page } = await open(path);
      const after = new Date();
      for (const provider of PROVIDERS) {
        const item = page.locator(`ul.forecasts li[data-provider="${provider}"]`);
        expect(await item.count()).toBe(1);
        const text = ((await item.locator('[data-forecast-sentence]').textContent()) ?? '').replace(/\s+/g, ' ').trim();
        expect(sentencesAround(provider, locale, [before, after])).toContain(text);
      }
      expect(await page.textContent('ul.forecasts + p.note')).toContain(TRANSLATIONS[locale].forecast.note);
      await page.close();
    }
  });

  it.each(PROVIDERS.flatMap((provider) => [`/${provider}`, `/zh/${provider}`]))(
    '%s draws the chance by day when there is one, and the forecast against outcome with the caveat',
    async (path) => {
      const provider = PROVIDERS.find((candidate) => path.endsWith(candidate))!;
      const locale = path.startsWith('/zh') ? 'zh' : 'en';
      const words = TRANSLATIONS[locale].forecastPage;
      const { page } = await phonePage(path);
      const forecast = forecastFromHistory(provider, dataset.events, new Date());
      const chance = page.locator('figure[data-chart="chance-by-day"]');
      if (forecast.basis === 'cadence') {
        expect(await chance.locator('svg title').first().textContent()).toBe(words.byDayTitle);
        expect(await chance.locator('svg rect.bar').count()).toBe(14);
        expect(await chance.locator('details table tbody tr').count()).toBe(14);
        expect(await page.locator('[data-likely-window]').count()).toBe(1);
      } else {
        // No chart where the rule gives no chance: the sentence says why instead.
        expect(await chance.count()).toBe(0);
        expect(await page.locator('[data-likely-window]').count()).toBe(0);
      }
      const record = (await (await fetch(`${baseUrl}/api/forecast/track-record`)).json()) as {
        providers: {
          provider: string;
          firstCheckpoint: string | null;
          horizons: Record<string, { brierScore: number | null; baseRateBrierScore: number | null }>;
        }[];
      };
      const entry = record.providers.find((candidate) => candidate.provider === provider)!;
      const reliability = page.locator('figure[data-chart="reliability"]');
      if (entry.firstCheckpoint === null) {
        expect(await reliability.count()).toBe(0);
      } else {
        expect(await reliability.locator('svg title').first().textContent()).toBe(words.reliabilityTitle);
        expect(await reliability.locator('svg .diagonal').count()).toBe(1);
        const brierRows = await page.locator('table[data-brier] tbody tr').allTextContents();
        expect(brierRows).toHaveLength(2);
        const brier = (value: number | null) => (value === null ? '–' : value.toFixed(3));
        expect(brierRows[0]).toContain(brier(entry.horizons['1d']!.brierScore));
        expect(brierRows[1]).toContain(brier(entry.horizons['7d']!.baseRateBrierScore));
        expect(await page.textContent('[data-caveat]')).toBe(words.extremesCaveat);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    },
  );
});

describe('screenshots', () => {
  it('writes the board, a provider page and the tracker at 375 and 1280 px, light and dark', async () => {
    for (const [path, name] of [
      ['/', 'board'],
      ['/provider_b', 'provider'],
      ['/zh', 'board-zh'],
      ['/tracker', 'tracker'],
    ] as const) {
      // One load per page: the widths and colour schemes are CSS alone (no script of the pages reads them).
      const { page } = await open(path, { width: 375 });
      for (const width of [375, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        for (const colorScheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme });
          await page.screenshot({ path: `${SCREENSHOT_DIR}/${name}-${width}-${colorScheme}.png` });
        }
      }
      await page.close();
    }
  });
});

describe('the browser the tests drive', () => {
  it('has a CJK font: Chinese characters are drawn full-width (1 em each), not as narrow missing-glyph boxes', async () => {
    const page = await browser.newPage();
    const text = '重置额度已恢复';
    await page.setContent(`<span id="zh" style="font-size:40px;font-family:sans-serif">${text}</span>`);
    const width = await page.evaluate(() => document.getElementById('zh')!.getBoundingClientRect().width);
    // Every CJK font gives an ideograph an advance of one em; without one, each is a box about a third as wide.
    expect(width).toBeCloseTo([...text].length * 40, 0);
    await page.close();
  });
});

describe('on a 320 px phone', () => {
  it.each(['/', '/zh'])(
    '%s shows every provider’s status, last reset and next reset without sideways scrolling',
    async (path) => {
      const { page } = await phonePage(path);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
      const cells = await page.evaluate(() =>
        [...document.querySelectorAll('table.board tbody tr')].map((row) => ({
          provider: row.getAttribute('data-provider'),
          cells: ['status', 'last-reset', 'next-reset'].map((column) => {
            const cell = row.querySelector(`[data-column="${column}"]`);
            const box = cell?.getBoundingClientRect();
            return { column, left: box?.left ?? -1, right: box?.right ?? 9999, text: cell?.textContent?.trim() ?? '' };
          }),
        })),
      );
      expect(cells.map((row) => row.provider).sort()).toEqual([...PROVIDERS].sort());
      for (const row of cells)
        for (const cell of row.cells) {
          expect(cell.left, `${row.provider} ${cell.column}`).toBeGreaterThanOrEqual(0);
          expect(cell.right, `${row.provider} ${cell.column}`).toBeLessThanOrEqual(320);
          expect(cell.text.length, `${row.provider} ${cell.column}`).toBeGreaterThan(0);
        }
    },
  );

  it.each(['/', '/zh', `/${PROVIDERS[0]}`])('%s breaks no provider name inside a word', async (path) => {
    const { page } = await phonePage(path);
    const brokenWords = await page.evaluate(() =>
      [...document.querySelectorAll('table.board tbody th')].flatMap((cell) => {
        const node = cell.querySelector('a')?.firstChild;
        if (node === null || node === undefined || node.nodeType !== Node.TEXT_NODE) return ['(no name)'];
        const name = node.textContent ?? '';
        return [...name.matchAll(/\S+/g)].flatMap((word) => {
          const range = document.createRange();
          range.setStart(node, word.index);
          range.setEnd(node, word.index + word[0].length);
          const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
          return lines.size > 1 ? [word[0]] : [];
        });
      }),
    );
    expect(brokenWords).toEqual([]);
  });

  it.each(PROVIDERS.flatMap((provider) => [`/${provider}`, `/zh/${provider}`]))(
    '%s draws chart labels at least 11 px tall, the gaps chart’s last label whole, and names the median and overdue lines',
    async (path) => {
      const { page } = await phonePage(path);
      const labels = await page.evaluate(() =>
        [...document.querySelectorAll('figure.chart svg text')]
          // The drawing a phone shows (the hour chart's wide one is not drawn there).
          .filter((text) => (text.textContent ?? '').trim() !== '' && text.checkVisibility())
          .map((text) => {
            const element = text as SVGTextElement;
            // The length of a unit vector on screen: rotated labels (a y-axis title) scale like any other.
            const matrix = element.getScreenCTM();
            const scale = matrix === null ? 0 : Math.hypot(matrix.a, matrix.b);
            return { text: element.textContent, px: scale * Number.parseFloat(getComputedStyle(element).fontSize) };
          }),
      );
      expect(labels.length).toBeGreaterThan(0);
      for (const label of labels) expect(label.px, String(label.text)).toBeGreaterThanOrEqual(11 - 0.01);

      const gaps = await page.evaluate(() => {
        const svg = document.querySelector('figure.chart[data-chart="gaps"] svg');
        if (svg === null) return null;
        const frame = svg.getBoundingClientRect();
        const axisLabels = [...svg.querySelectorAll('text[data-axis="x"]')];
        const last = axisLabels.at(-1)?.getBoundingClientRect();
        return {
          svgRight: frame.right,
          lastRight: last?.right ?? null,
          median: svg.querySelector('text[data-line="median"]')?.textContent ?? null,
          overdue: svg.querySelector('text[data-line="overdue"]')?.textContent ?? null,
          hasMedianLine: svg.querySelector('line.median') !== null,
        };
      });
      expect(gaps).not.toBeNull();
      expect(gaps!.lastRight).not.toBeNull();
      expect(gaps!.lastRight!).toBeLessThanOrEqual(gaps!.svgRight + 0.5);
      if (gaps!.hasMedianLine) {
        expect(gaps!.median).toMatch(/\d/);
        expect(gaps!.overdue).toMatch(/\d/);
      }
    },
  );
});

describe('the next reset a person sees first', () => {
  it.each(['/', '/zh'])(
    '%s puts an announced or teased time, with its post, before the estimate, which stays labelled',
    async (path) => {
      const now = new Date();
      const vendorWord = PROVIDERS.map((provider) => ({
        provider,
        forecast: forecastFromHistory(provider, dataset.events, now),
      })).filter(({ forecast }) => forecast.basis === 'announced' || forecast.basis === 'teased');
      expect(vendorWord.length, 'the served events hold an announced or teased reset ahead').toBeGreaterThan(0);
      const { page } = await open(path);
      const words = TRANSLATIONS[path === '/' ? 'en' : 'zh'].boardAnswer;
      // The words before the first placeholder: "Announced for", "Cadence estimate", "已宣布于"…
      const lead = (template: string) => template.split('{')[0]!.trim();
      for (const { provider, forecast } of vendorWord) {
        const cell = page.locator(`tr[data-provider="${provider}"] [data-column="next-reset"]`);
        const answer = cell.locator('[data-answer]');
        expect(await answer.getAttribute('data-answer')).toBe(forecast.basis);
        expect(await answer.locator('time').getAttribute('datetime')).toBe(
          new Date(forecast.announcedFor!).toISOString(),
        );
        const source = dataset.events.find(
          (event) =>
            event.provider === provider &&
            (event.kind === 'reset' || event.kind === 'tease') &&
            event.effectiveAt !== null &&
            Date.parse(event.effectiveAt) === Date.parse(forecast.announcedFor!),
        );
        expect(await answer.locator('a').getAttribute('href')).toBe(source?.sourceUrl);
        const text = (await cell.textContent()) ?? '';
        const vendorAt = text.indexOf(lead(words[forecast.basis as 'announced' | 'teased']));
        const estimateAt = text.indexOf(lead(words.estimateAhead).replace(/[:：]$/, ''));
        expect(vendorAt).toBeGreaterThanOrEqual(0);
        expect(estimateAt).toBeGreaterThan(vendorAt);
      }
      for (const provider of PROVIDERS.filter((id) => !vendorWord.some((word) => word.provider === id))) {
        const cell = page.locator(`tr[data-provider="${provider}"] [data-column="next-reset"]`);
        expect(await cell.locator('[data-answer="announced"], [data-answer="teased"]').count()).toBe(0);
        expect(await cell.locator('[data-estimate-line]').textContent()).toContain(
          lead(words.estimateAhead).replace(/[:：]$/, ''),
        );
      }
      await page.close();
    },
  );
});
