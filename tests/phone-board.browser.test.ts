import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PREFIXED_LANGUAGES } from '../src/core/languages.ts';
import { PROVIDERS } from '../src/core/vocabulary.ts';
import { axeViolations } from './support/axe.ts';
import { launchWithAndWithoutScript, watchPageErrors } from './support/browser.ts';
import { serveHonestRows, type HonestRows } from './support/honest-rows.ts';

/**
 * The board on a phone (decisions.md, "The board on a phone"), in Chromium at 320 × 700, 390 × 844 and 1280 × 900:
 * every provider's status word and next reset on the first screen, no page wider than a 320 px screen, and rows
 * that never contradict themselves. Two boards: the shared served build (a live tease three days ahead) and the
 * honest rows (tests/support/honest-rows.ts: a tease whose time passed without a reset, a forecast worse than its
 * base rate), both made from the run's clock.
 */

const sharedBaseUrl = inject('baseUrl');
const SCREENS = [
  { width: 320, height: 700 },
  { width: 390, height: 844 },
  { width: 1280, height: 900 },
] as const;
const PAGES = ['/', ...PROVIDERS.map((provider) => `/${provider}`), '/tracker', '/api', '/about'];
const BOTH_LANGUAGES = PAGES.flatMap((path) => [path, path === '/' ? '/zh' : `/zh${path}`]);
/**
 * The pages whose document depends on the board's events: the board and the provider pages. The honest rows' copy
 * serves the others as the shared build does (about and api are the same prerendered files; the tracker reads no
 * event, and tests/page-templates.test.ts shows its Astro render and its template alike), so they are checked on
 * the shared board only.
 */
const readsTheBoard = (path: string) => !/\/(tracker|api|about)$/.test(path);

let closeChromium: (() => Promise<void>) | undefined;
let browser: BrowserContext;
let noScript: BrowserContext;
let honest: HonestRows & { server: { baseUrl: string }; stop: () => Promise<void> };

beforeAll(async () => {
  [[browser, noScript], honest] = await Promise.all([
    launchWithAndWithoutScript({ timezoneId: 'Asia/Tokyo' }).then(({ withScript, noScript, close }) => {
      closeChromium = close;
      return [withScript, noScript] as const;
    }),
    serveHonestRows(inject('builtDir'), new Date()),
  ]);
});
afterAll(async () => {
  await Promise.all([closeChromium?.(), honest?.stop()]);
});

/**
 * One tab per browser, every page of the file opened in it in turn, as a reader goes from page to page: with a new
 * tab for each of the file's 165 pages, Chromium took 21 and 30 s of CPU for the file, in one tab 16 and 20 s (two
 * runs each, alternated). Each `goto` is a new document; a listener a test adds to the tab, it removes.
 */
const tabs = new Map<BrowserContext, Page>();
async function tabOf(context: BrowserContext): Promise<Page> {
  let page = tabs.get(context);
  if (page === undefined) {
    page = await context.newPage();
    tabs.set(context, page);
  }
  return page;
}

async function open(
  baseUrl: string,
  path: string,
  { width, height }: { width: number; height: number },
  context: BrowserContext = browser,
): Promise<Page> {
  const page = await tabOf(context);
  await page.setViewportSize({ width, height });
  const response = await page.goto(`${baseUrl}${path}`);
  expect(response?.status(), path).toBe(200);
  return page;
}

/**
 * Where each provider's status word and next reset are drawn: the next reset is the vendor's announced or teased
 * time when the row has one, else the cadence estimate (each with the absolute time under it).
 */
const firstScreenBoxes = (page: Page) =>
  page.$$eval('table.board tbody tr', (rows) =>
    rows.map((row) => {
      const box = (element: Element | null) => {
        const rect = element?.getBoundingClientRect();
        return rect === undefined ? null : { top: rect.top, bottom: rect.bottom, right: rect.right };
      };
      const cell = row.querySelector('[data-column="next-reset"]');
      return {
        provider: row.getAttribute('data-provider'),
        status: box(row.querySelector('.status')),
        next: box(cell?.querySelector('.answer') ?? cell?.querySelector('.estimate') ?? null),
        nextText: (cell?.querySelector('.answer') ?? cell?.querySelector('.estimate'))?.textContent?.trim() ?? '',
      };
    }),
  );

async function expectFirstScreen(page: Page, screen: { width: number; height: number }, label: string) {
  const rows = await firstScreenBoxes(page);
  expect(rows.map((row) => row.provider).sort(), label).toEqual([...PROVIDERS].sort());
  for (const row of rows) {
    for (const [part, box] of [
      ['status', row.status],
      ['next reset', row.next],
    ] as const) {
      expect(box, `${label}: ${row.provider} ${part}`).not.toBeNull();
      expect(box!.top, `${label}: ${row.provider} ${part}`).toBeGreaterThanOrEqual(0);
      expect(box!.bottom, `${label}: ${row.provider} ${part} ends below the first screen`).toBeLessThanOrEqual(
        screen.height,
      );
      expect(box!.right, `${label}: ${row.provider} ${part}`).toBeLessThanOrEqual(screen.width);
    }
    expect(row.nextText.length, `${label}: ${row.provider} next reset`).toBeGreaterThan(0);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth), label).toBeLessThanOrEqual(screen.width);
}

/** Each shown heading and caption of the page, its text without spaces and the number of lines it is drawn on. */
const headingLines = (page: Page) =>
  page.$$eval('h1, h2, h3, caption', (elements) =>
    elements.flatMap((element) => {
      const text = (element.textContent ?? '').replace(/\s+/g, '');
      const range = document.createRange();
      range.selectNodeContents(element);
      const rects = [...range.getClientRects()].filter((rect) => rect.width > 0);
      if (rects.length === 0) return []; // not shown at this width
      return [{ text, lines: new Set(rects.map((rect) => Math.round(rect.top))).size }];
    }),
  );

describe('the first screen of the board', () => {
  it.each(SCREENS)(
    'at $width × $height shows every provider’s status word and next reset, in both languages, on both boards',
    async (screen) => {
      for (const baseUrl of [sharedBaseUrl, honest.server.baseUrl]) {
        for (const path of ['/', '/zh']) {
          const page = await open(baseUrl, path, screen);
          await expectFirstScreen(page, screen, `${path} of ${baseUrl}`);
        }
      }
    },
  );

  it.each(SCREENS.slice(0, 2))('at $width × $height without JavaScript too (times in UTC)', async (screen) => {
    for (const baseUrl of [sharedBaseUrl, honest.server.baseUrl]) {
      for (const path of ['/', '/zh']) {
        const page = await open(baseUrl, path, screen, noScript);
        await expectFirstScreen(page, screen, `${path} of ${baseUrl}, no script`);
      }
    }
  });

  it('puts the rows before the notice, the introduction, the computed-at and the sources lines', async () => {
    const page = await open(sharedBaseUrl, '/', SCREENS[0]);
    const order = await page.evaluate(() => {
      const top = (selector: string) => document.querySelector(selector)?.getBoundingClientRect().top ?? -1;
      return {
        board: top('table.board tbody tr:last-child'),
        later: ['[data-sample-notice]', '.tagline', '#computed', '#sources'].map(top),
      };
    });
    for (const top of order.later) expect(top).toBeGreaterThan(order.board);
  });

  it('reads its Chinese caption in one line, not a column of characters', async () => {
    for (const screen of SCREENS) {
      const page = await open(sharedBaseUrl, '/zh', screen);
      const caption = await page.$eval('table.board caption', (element) => {
        const range = document.createRange();
        range.selectNodeContents(element);
        return { lines: new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size };
      });
      expect(caption.lines, `at ${screen.width}`).toBe(1);
    }
  });

  // A column of characters is one or two to a line; a heading that wraps as text does holds many more. Four is
  // the least a line of a Chinese heading may hold (its last line aside) at 320 px, where the columns were seen.
  it.each(BOTH_LANGUAGES.filter((path) => path.startsWith('/zh')))(
    '%s: every Chinese heading and caption reads in lines at 320 and 390 px',
    async (path) => {
      for (const screen of SCREENS.slice(0, 2)) {
        const page = await open(sharedBaseUrl, path, screen);
        const headings = await headingLines(page);
        expect(headings.length, `${path} at ${screen.width}`).toBeGreaterThan(0);
        for (const { text, lines } of headings)
          expect(lines, `"${text}" on ${path} at ${screen.width}`).toBeLessThanOrEqual(
            Math.max(1, Math.ceil(text.length / 4)),
          );
      }
    },
  );
});

describe('no page scrolls sideways at 320 px', () => {
  it.each(BOTH_LANGUAGES)('%s, on the honest rows’ board too where its page reads the board', async (path) => {
    for (const baseUrl of readsTheBoard(path) ? [sharedBaseUrl, honest.server.baseUrl] : [sharedBaseUrl]) {
      const page = await open(baseUrl, path, SCREENS[0]);
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth),
        `${path} of ${baseUrl}`,
      ).toBeLessThanOrEqual(320);
    }
  });

  it.each(['/tracker', '/zh/tracker'])(
    '%s after "Make my calendar link", with and without JavaScript',
    async (path) => {
      for (const context of [browser, noScript]) {
        const page = await open(sharedBaseUrl, path, SCREENS[0], context);
        await page.fill('input[name=weekly]', '2026-11-23T09:00');
        await page.fill('input[name=tz]', 'America/New_York');
        await Promise.all([page.waitForURL(/\/tracker\?/), page.click('#tracker-form button[type=submit]')]);
        expect(await page.isVisible('#ics-url')).toBe(true);
        expect(await page.inputValue('#ics-url')).toContain('/api/ics?');
        const field = await page.$eval('#ics-url', (input) => input.getBoundingClientRect().right);
        expect(field).toBeLessThanOrEqual(320);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
      }
    },
  );

  it.each(PROVIDERS.flatMap((provider) => [`/${provider}`, `/zh/${provider}`]))(
    '%s: every hour of the hour chart and every day of the chance chart drawn on the screen, the scores whole',
    async (path) => {
      const page = await open(sharedBaseUrl, path, SCREENS[0]);
      const drawn = await page.evaluate(() => {
        const onScreen = (element: Element) => {
          const rect = element.getBoundingClientRect();
          return rect.width > 0 && rect.left >= 0 && rect.right <= window.innerWidth;
        };
        const hourLabels = [...document.querySelectorAll('figure[data-chart="hours"] svg text[data-hour]')].filter(
          (text) => text.checkVisibility(),
        );
        const chance = [...document.querySelectorAll('figure[data-chart="chance-by-day"] svg > text')].filter((text) =>
          /^\d+$/.test(text.textContent ?? ''),
        );
        const scores = [...document.querySelectorAll('table[data-brier] th, table[data-brier] td')];
        return {
          hours: hourLabels.filter(onScreen).map((text) => text.textContent),
          chanceDays: chance.length,
          chanceDaysOnScreen: chance.filter(onScreen).length,
          scoresCut: scores.filter((cell) => cell.checkVisibility() && !onScreen(cell)).map((cell) => cell.textContent),
        };
      });
      // The hour chart's phone drawing: one row per hour, each labelled, all inside the screen.
      expect(drawn.hours).toEqual(Array.from({ length: 24 }, (_, hour) => String(hour)));
      expect(drawn.chanceDaysOnScreen).toBe(drawn.chanceDays);
      expect(drawn.scoresCut).toEqual([]);
    },
  );

  it('the gaps chart, the one chart that scrolls inside its frame, says so above it', async () => {
    const page = await open(sharedBaseUrl, '/provider_a', SCREENS[0]);
    const frame = await page.$eval('figure[data-chart="gaps"]', (figure) => ({
      scrolls: figure.scrollWidth > figure.clientWidth,
      cue: figure.previousElementSibling?.matches('.scroll-cue') && figure.previousElementSibling.checkVisibility(),
    }));
    expect(frame).toEqual({ scrolls: true, cue: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(await page.isVisible('.scroll-cue')).toBe(false);
  });
});

describe('every language under a prefix at 320 px', () => {
  // The rules above, for each language of src/core/languages.ts: its board's first screen shows every provider's
  // status word and next reset, none of its pages scrolls sideways, and no caption or heading is a column of
  // characters (the same measure as the Chinese headings': at least four characters a line, its last line aside).
  // And what tests/website.browser.test.ts checks of every English and Chinese page, for these languages' pages
  // here: no console error (a CSP violation, a script's failure), and on the board and a provider page, the pages
  // with the most of a language's words, no axe violation (at 320 px, light).
  it.each(PREFIXED_LANGUAGES.map((language) => ({ ...language, root: `/${language.prefix}` })))(
    '$root ($code): the first screen, no sideways scroll, no caption or heading as a column, no console error or axe violation',
    async ({ root }) => {
      const screen = SCREENS[0];
      const paths = PAGES.map((path) => (path === '/' ? root : `${root}${path}`));
      const watch = watchPageErrors(await tabOf(browser));
      try {
        for (const baseUrl of [sharedBaseUrl, honest.server.baseUrl]) {
          for (const path of baseUrl === sharedBaseUrl ? paths : paths.filter(readsTheBoard)) {
            const page = await open(baseUrl, path, screen);
            if (baseUrl === sharedBaseUrl && (path === root || path === `${root}/${PROVIDERS[0]}`))
              expect(await axeViolations(page), path).toEqual([]);
            // The board's first screen, on the load the page checks below read too.
            if (path === root) await expectFirstScreen(page, screen, `${root} of ${baseUrl}`);
            expect(
              await page.evaluate(() => document.documentElement.scrollWidth),
              `${path} of ${baseUrl}`,
            ).toBeLessThanOrEqual(screen.width);
            const headings = await headingLines(page);
            for (const { text, lines } of headings)
              expect(lines, `"${text}" on ${path} of ${baseUrl}`).toBeLessThanOrEqual(
                Math.max(1, Math.ceil(text.length / 4)),
              );
          }
        }
        expect(watch.errors).toEqual([]);
      } finally {
        watch.stop();
      }
    },
  );
});

describe('honest rows', () => {
  const WORDS = {
    '/': { teased: 'teased for', unconfirmed: 'not confirmed', worse: 'worse than the base rate' },
    '/zh': { teased: '预告将于', unconfirmed: '尚未确认', worse: '不如基准率' },
  } as const;

  it.each(['/', '/zh'] as const)(
    '%s: the passed tease says when it was teased and that it is not confirmed yet, in its row',
    async (path) => {
      for (const screen of [SCREENS[0], SCREENS[2]]) {
        const page = await open(honest.server.baseUrl, path, screen);
        const row = page.locator(`tr[data-provider="${honest.passedTease.provider}"]`);
        expect(await row.locator('.status').getAttribute('data-status')).toBe('tease');
        const line = row.locator('[data-unconfirmed-tease]');
        expect(await line.isVisible()).toBe(true);
        const text = (await line.textContent())?.replace(/\s+/g, ' ') ?? '';
        expect(text).toContain(WORDS[path].teased);
        expect(text).toContain(WORDS[path].unconfirmed);
        expect(await line.locator('time').getAttribute('datetime')).toBe(honest.passedTease.effectiveAt);
        expect(await line.locator('a').getAttribute('href')).toBe(honest.passedTease.sourceUrl);
        // The time is passed, so the row offers no "Teased for … (in …)" as the next reset.
        expect(await row.locator('[data-answer="teased"], [data-answer="announced"]').count()).toBe(0);
        // Only that row says so.
        expect(await page.locator('[data-unconfirmed-tease]').count()).toBe(1);
      }
    },
  );

  it.each(['/', '/zh'] as const)(
    '%s: the forecast that scored worse than its base rate says so beside its numbers, the other does not',
    async (path) => {
      const page = await open(honest.server.baseUrl, path, SCREENS[0]);
      const worse = page.locator(`ul.forecasts li[data-provider="${honest.worse}"]`);
      expect(await worse.getAttribute('data-forecast-basis')).toBe('cadence');
      const note = worse.locator('[data-worse-than-base-rate]');
      expect(await note.getAttribute('data-worse-than-base-rate')).toBe('1d 7d');
      const text = (await note.textContent()) ?? '';
      // The scores worked by hand in src/core/forecast/skill.test.ts.
      for (const score of ['0.245', '0.222', '1.000', '0.000']) expect(text).toContain(score);
      expect(text).toContain(path === '/' ? 'worse than the base rate' : '不如基准率');
      expect(await page.locator('ul.forecasts [data-worse-than-base-rate]').count()).toBe(1);
    },
  );

  it.each(['/provider_b', '/zh/provider_b', '/provider_a', '/zh/provider_a'])(
    '%s says so beside the number on the provider page, where it is worse',
    async (path) => {
      const isWorse = path.endsWith(honest.worse);
      const words = WORDS[path.startsWith('/zh') ? '/zh' : '/'];
      const page = await open(honest.server.baseUrl, path, SCREENS[0]);
      const marks = await page.$$eval('table[data-brier] tbody tr', (rows) =>
        rows.map((row) => {
          const cells = [...row.querySelectorAll('td')];
          return {
            brier: cells[1]?.querySelector('span')?.textContent?.trim(),
            mark: cells[1]?.querySelector('[data-worse-than-base-rate]')?.textContent?.trim() ?? null,
          };
        }),
      );
      expect(marks).toEqual(
        isWorse
          ? [
              { brier: '0.245', mark: words.worse },
              { brier: '1.000', mark: words.worse },
            ]
          : [
              { brier: '0.000', mark: null },
              { brier: '0.000', mark: null },
            ],
      );
      expect(await page.locator('ul.forecasts [data-worse-than-base-rate]').count()).toBe(isWorse ? 1 : 0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    },
  );
});
