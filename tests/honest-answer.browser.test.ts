import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { BOARD_STATUSES, PROVIDERS } from '../src/core/vocabulary.ts';
import { type AnswersBoard, answersBoardEvents } from './support/answers-board.ts';
import { launchWithAndWithoutScript } from './support/browser.ts';
import { serveEventsCopy } from './support/honest-rows.ts';
import { scaled } from '../scripts/lib/load-scaled.ts';

/**
 * One honest answer (decisions.md), in Chromium at 320 × 700 and 1280 × 900, in English and Chinese, with and
 * without JavaScript: one answer to "when" per provider, the likely window in the page's own zone, a passed
 * cadence estimate called passed (never "any time now"), an old passed tease still flagged, a legend of the status
 * words, rows that keep current without a reload, and a provider page that a phone reads answer first. The board is
 * tests/support/answers-board.ts, made from the run's clock.
 */

const SCREENS = [
  { width: 320, height: 700 },
  { width: 1280, height: 900 },
] as const;
const LANGUAGES = [
  { prefix: '', words: { passed: 'Cadence estimate passed', notConfirmed: 'not confirmed', likely: 'Likely between' } },
  { prefix: '/zh', words: { passed: '节奏估计已过', notConfirmed: '尚未确认', likely: '可能在' } },
] as const;
/** Asia/Tokyo is GMT+9 all year: every time on the page, the window's too, names that zone once the script ran. */
const ZONE = /GMT\+9/;
/** "Any time now" and its translation (随时 alone is also "at any time", as in "stop at any time"). */
const ANY_TIME_NOW = /any time now|随时可能/i;
/** How far ahead the announced reset is on the board the pages load: hours, whatever the machine's speed. */
const ANNOUNCED_AHEAD_MS = 6 * 3_600_000;
/** How long ago it took effect on the board that server answers "later" with (rows that keep current, below). */
const ANNOUNCED_PASSED_MS = 60_000;

let closeChromium: (() => Promise<void>) | undefined;
let browser: BrowserContext;
let noScript: BrowserContext;
let board: AnswersBoard;
/** The same board once the announced moment has passed: what the service answers after it. */
let boardLater: AnswersBoard;
let baseUrl: string;
let laterUrl: string;
let stop: () => Promise<void>;

beforeAll(async () => {
  const now = new Date();
  board = answersBoardEvents(now, new Date(now.getTime() + ANNOUNCED_AHEAD_MS));
  boardLater = answersBoardEvents(now, new Date(now.getTime() - ANNOUNCED_PASSED_MS));
  let served: Awaited<ReturnType<typeof serveEventsCopy>>[];
  [served, [browser, noScript]] = await Promise.all([
    Promise.all([
      serveEventsCopy(inject('builtDir'), board.events, now),
      serveEventsCopy(inject('builtDir'), boardLater.events, now),
    ]),
    launchWithAndWithoutScript({ timezoneId: 'Asia/Tokyo' }).then(({ withScript, noScript, close }) => {
      closeChromium = close;
      return [withScript, noScript] as const;
    }),
  ]);
  baseUrl = served[0]!.server.baseUrl;
  laterUrl = served[1]!.server.baseUrl;
  stop = async () => {
    await Promise.all(served.map((one) => one.stop()));
  };
});
afterAll(async () => {
  await Promise.all([closeChromium?.(), stop?.()]);
});

async function open(path: string, screen: { width: number; height: number }, context = browser): Promise<Page> {
  const page = await context.newPage();
  await page.setViewportSize(screen);
  const response = await page.goto(`${baseUrl}${path}`);
  expect(response?.status(), path).toBe(200);
  return page;
}

/** How the Markdown mirror writes an instant, worked out here: `2026-12-03 14:03 UTC`, `2026年12月3日 14:03（UTC）`. */
function writtenUtc(iso: string, prefix: string): string {
  const [date, time] = [iso.slice(0, 10), iso.slice(11, 16)];
  if (prefix === '') return `${date} ${time} UTC`;
  const [year, month, day] = date.split('-').map(Number);
  return `${year}年${month}月${day}日 ${time}（UTC）`;
}

const rowOf = (page: Page, provider: string) => page.locator(`table.board tr[data-provider="${provider}"]`);

describe('one answer per provider', () => {
  it.each(LANGUAGES.flatMap((language) => SCREENS.map((screen) => ({ ...language, screen }))))(
    '$prefix/ at $screen.width px: the window in the page’s zone, the estimate passed with its date, no "any time now"',
    async ({ prefix, words, screen }) => {
      for (const context of [browser, noScript]) {
        const page = await open(prefix || '/', screen, context);
        expect(await page.locator('main').textContent()).not.toMatch(ANY_TIME_NOW);
        const row = rowOf(page, board.overdue.provider);
        expect(await row.locator('.status').getAttribute('data-status')).toBe('overdue');
        // One answer: the likely window (from = to here), then the cadence estimate, named, passed, with its date.
        const answers = row.locator('[data-answer]');
        expect(await answers.count()).toBe(1);
        expect(await answers.getAttribute('data-answer')).toBe('window');
        expect(await answers.textContent()).toContain(words.likely);
        expect(
          await answers.locator('time').evaluateAll((times) => times.map((time) => time.getAttribute('datetime'))),
        ).toEqual([board.overdue.windowAt, board.overdue.windowAt]);
        const estimate = row.locator('[data-estimate-line]');
        expect(await estimate.textContent()).toContain(words.passed);
        expect(await estimate.locator('time').getAttribute('datetime')).toBe(board.overdue.estimateAt);
        if (context === browser) {
          // With the script, every time in the row (the window's too) is in the reader's zone, as the others are.
          for (const text of await row.locator('time').allTextContents()) expect(text).toMatch(ZONE);
        } else {
          for (const text of await row.locator('time').allTextContents()) expect(text).toMatch(/UTC/);
        }
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(screen.width);
        await page.close();
      }
    },
  );

  it.each(LANGUAGES)(
    '$prefix/ flags a 10-day-old passed tease that is still the latest signal',
    async ({ prefix, words }) => {
      for (const screen of SCREENS) {
        const page = await open(prefix || '/', screen);
        const row = rowOf(page, board.oldTease.provider);
        expect(await row.locator('.status').getAttribute('data-status')).toBe('waiting');
        const flag = row.locator('[data-unconfirmed-tease]');
        expect(await flag.isVisible()).toBe(true);
        expect(await flag.textContent()).toContain(words.notConfirmed);
        expect(await flag.locator('time').getAttribute('datetime')).toBe(board.oldTease.effectiveAt);
        expect(await flag.locator('a').getAttribute('href')).toBe(board.oldTease.sourceUrl);
        await page.close();
      }
    },
  );

  it.each(LANGUAGES)(
    '$prefix/index.md says the same: one answer per row, passed, the flag, a legend',
    async ({ prefix, words }) => {
      const markdown = await (await fetch(`${baseUrl}${prefix}/index.md`)).text();
      expect(markdown).not.toMatch(ANY_TIME_NOW);
      const overdueLine = markdown.split('\n').find((line) => line.includes(`\`${board.overdue.provider}\``))!;
      expect(overdueLine).toContain(words.passed);
      expect(overdueLine).toContain(writtenUtc(board.overdue.estimateAt, prefix));
      const teaseLine = markdown.split('\n').find((line) => line.includes(`\`${board.oldTease.provider}\``))!;
      expect(teaseLine).toContain(words.notConfirmed);
      expect(teaseLine).toContain(board.oldTease.sourceUrl);
      for (const status of BOARD_STATUSES)
        expect(markdown).toMatch(new RegExp(`^- \\*\\*.+\\*\\*.*\`${status}\`.*[:：]`, 'm'));
    },
  );
});

describe('the legend of the status words', () => {
  it.each(
    LANGUAGES.flatMap(({ prefix }) =>
      ['/', ...PROVIDERS.map((provider) => `/${provider}`)].map(
        (path) => `${prefix}${path === '/' && prefix ? '' : path}`,
      ),
    ),
  )('%s explains all six, and each row’s word leads to its entry', async (path) => {
    const page = await open(path, SCREENS[0], noScript);
    for (const status of BOARD_STATUSES) {
      const entry = page.locator(`[data-status-legend] #status-${status}`);
      expect(await entry.count(), status).toBe(1);
      expect(((await entry.locator('dd').textContent()) ?? '').length).toBeGreaterThan(10);
    }
    for (const word of await page.locator('table.board .status').all()) {
      const status = await word.getAttribute('data-status');
      expect(await word.getAttribute('href')).toBe(`#status-${status}`);
    }
    await page.close();
  });
});

describe('rows that keep current', () => {
  // The page loads while the announced reset is ahead; a minute later (the page's clock, moved) it reads the service
  // again, and the service then answers as it does once that moment has passed: a server of the same build whose
  // board is the same but for the announced reset, in effect a minute ago. The page is never waited on for real
  // time to pass; that the service's answer turns at the announced moment is the core's (src/core/board.test.ts).
  it('show the announced reset as "Reset now" once its time passed, without a reload', async () => {
    const page = await browser.newPage();
    await page.clock.install();
    await page.setViewportSize(SCREENS[1]);
    await page.goto(`${baseUrl}/`);
    const row = rowOf(page, board.announced.provider);
    expect(await row.locator('.status').getAttribute('data-status')).toBe('tease');
    expect(await row.locator('[data-answer]').getAttribute('data-answer')).toBe('announced');
    await page.evaluate(() => {
      (window as unknown as { sameDocument: boolean }).sameDocument = true;
    });
    const later: string[] = [];
    await page.route(/\/api\/(status|forecast)$/, async (route) => {
      const url = new URL(route.request().url());
      later.push(url.pathname);
      await route.fulfill({ response: await route.fetch({ url: `${laterUrl}${url.pathname}` }) });
    });
    await page.clock.fastForward(60_000);
    await expect
      .poll(() => row.locator('.status').getAttribute('data-status'), { timeout: scaled(30_000) })
      .toBe('reset_now');
    expect([...new Set(later)].sort()).toEqual(['/api/forecast', '/api/status']);
    expect(await row.locator('[data-column="last-reset"] time').getAttribute('datetime')).toBe(
      boardLater.announced.effectiveAt,
    );
    // The announcement is the reset on record now: the row no longer leads with it (the forecast's window may).
    expect(await row.locator('[data-answer="announced"]').count()).toBe(0);
    expect(await page.locator('[data-live-note]').textContent()).toMatch(/Rows updated/);
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    await page.close();
  });

  it('without JavaScript, say when they were computed', async () => {
    const page = await open('/', SCREENS[0], noScript);
    expect(await page.locator('#computed time').getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT/);
    await page.close();
  });
});

describe('a provider page on a phone', () => {
  it.each(['/provider_a', '/zh/provider_a'])(
    '%s reads the answer and the charts before the folded archive',
    async (path) => {
      const page = await open(path, SCREENS[0]);
      const tops = await page.evaluate(() => {
        const top = (selector: string) => document.querySelector(selector)?.getBoundingClientRect().top ?? Number.NaN;
        return {
          answer: top('table.board [data-answer]'),
          forecast: top('#forecast-heading'),
          gaps: top('figure[data-chart="gaps"]'),
          archive: top('details[data-archive="history"]'),
          open: (document.querySelector('details[data-archive="history"]') as HTMLDetailsElement | null)?.open,
          height: document.documentElement.scrollHeight,
        };
      });
      expect(tops.answer).toBeLessThan(tops.forecast);
      expect(tops.forecast).toBeLessThan(tops.gaps);
      expect(tops.gaps).toBeLessThan(tops.archive);
      expect(tops.open).toBe(false);
      // Folded, the page is a few screens, not the 32 it was with the whole history open.
      expect(tops.height).toBeLessThan(16 * SCREENS[0].height);
      await page.close();
    },
  );

  it('opens the archive at an event linked from the board', async () => {
    const page = await open('/', SCREENS[1]);
    const link = rowOf(page, board.overdue.provider).locator('[data-column="latest-signal"] a');
    const href = (await link.getAttribute('href'))!;
    await Promise.all([page.waitForURL(/#event-/), link.click()]);
    const id = decodeURIComponent(href.split('#')[1]!);
    await expect.poll(() => page.locator(`[id="${id}"]`).isVisible()).toBe(true);
    expect(
      await page.locator('details[data-archive="history"]').evaluate((details) => (details as HTMLDetailsElement).open),
    ).toBe(true);
    await page.close();
  });
});
