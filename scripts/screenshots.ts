// `npm run screenshots`: the screenshots in docs/screenshots, taken in Chromium from a running site.
// Start the site first (`npm start`, which serves the events in content/events), then run this beside it;
// `--base-url <url>` for another address than http://localhost:4321. The times are shown in UTC.
//
// For each page: the first screen at 320 × 700 and 390 × 844 (phones) and 1280 × 900 (a desktop), in the light
// colour scheme; the board also in the dark one. The tracker is taken after "Make my calendar link", the whole
// page, to show the link's field fits. The provider pages' forecast and charts are also taken at 320 px, each part
// from its first element to its last (`-320-<part>`), to show every hour, day and column fits a phone. Look at each
// one before committing them.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Page } from 'playwright-core';
import { findChromium } from './lib/chromium.ts';
import { projectRoot } from './lib/tools.ts';

const { values } = parseArgs({ options: { 'base-url': { type: 'string', default: 'http://localhost:4321' } } });
const baseUrl = values['base-url'].replace(/\/$/, '');
const outDir = path.join(projectRoot, 'docs/screenshots');

const SCREENS = [
  { width: 320, height: 700 },
  { width: 390, height: 844 },
  { width: 1280, height: 900 },
] as const;

interface Shot {
  name: string;
  path: string;
  /** Also in the dark colour scheme, at these widths. */
  darkAt?: readonly number[];
  /** What to do before the picture; the whole page is taken when it returns true. */
  prepare?: (page: Page) => Promise<boolean>;
  /** Parts of the page also taken at 320 px: from the top of `from` to the bottom of `to` (CSS selectors). */
  partsAt320?: Record<string, { from: string; to: string }>;
}

/** A provider page's forecast (its chance chart, the Brier table, the reliability chart) and its other charts. */
const PROVIDER_PARTS = {
  forecast: { from: '#forecast-heading', to: '[data-chart="reliability"]' },
  charts: { from: '[data-chart="hours"]', to: '[data-chart="gaps"]' },
};

/** The page's region from the top of `from` to the bottom of `to`, in page coordinates. */
async function regionOf(page: Page, { from, to }: { from: string; to: string }) {
  const top = await page
    .locator(from)
    .first()
    .evaluate((element) => element.getBoundingClientRect().top + scrollY);
  const bottom = await page
    .locator(to)
    .first()
    .evaluate((element) => element.getBoundingClientRect().bottom + scrollY);
  return { x: 0, y: Math.floor(top), width: page.viewportSize()!.width, height: Math.ceil(bottom - top) };
}

/** Fills in a weekly window and makes the link, as a visitor would. */
async function makeCalendarLink(page: Page): Promise<boolean> {
  await page.fill('input[name=weekly]', '2026-11-23T09:00');
  await Promise.all([page.waitForURL(/\/tracker\?/), page.click('#tracker-form button[type=submit]')]);
  await page.waitForSelector('#tracker-link:not([hidden])');
  return true;
}

const SHOTS: Shot[] = [
  { name: 'board', path: '/', darkAt: [390, 1280] },
  { name: 'board-zh', path: '/zh', darkAt: [390] },
  { name: 'provider_a', path: '/provider_a', partsAt320: PROVIDER_PARTS },
  { name: 'provider_c-zh', path: '/zh/provider_c', partsAt320: PROVIDER_PARTS },
  { name: 'tracker', path: '/tracker', prepare: makeCalendarLink },
];

try {
  await fetch(`${baseUrl}/favicon.svg`);
} catch {
  console.error(`Nothing answers at ${baseUrl}: start the site first (npm start), or name it with --base-url.`);
  process.exit(1);
}

await mkdir(outDir, { recursive: true });
const found = await findChromium();
const browser = await chromium.launch({
  executablePath: found.executablePath,
  env: { ...process.env, ...found.env },
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
});
try {
  for (const shot of SHOTS) {
    for (const { width, height } of SCREENS) {
      const schemes = shot.darkAt?.includes(width) ? (['light', 'dark'] as const) : (['light'] as const);
      for (const colorScheme of schemes) {
        const context = await browser.newContext({ viewport: { width, height }, colorScheme, timezoneId: 'UTC' });
        const page = await context.newPage();
        await page.goto(`${baseUrl}${shot.path}`);
        const fullPage = (await shot.prepare?.(page)) ?? false;
        const file = path.join(outDir, `${shot.name}-${width}${colorScheme === 'dark' ? '-dark' : ''}.png`);
        await page.screenshot({ path: file, fullPage });
        console.log(path.relative(projectRoot, file));
        for (const [part, region] of Object.entries(
          (width === 320 && colorScheme === 'light' && shot.partsAt320) || {},
        )) {
          const partFile = path.join(outDir, `${shot.name}-320-${part}.png`);
          await page.screenshot({ path: partFile, fullPage: true, clip: await regionOf(page, region) });
          console.log(path.relative(projectRoot, partFile));
        }
        await context.close();
      }
    }
  }
} finally {
  await browser.close();
}
