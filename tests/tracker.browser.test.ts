import { readFile } from 'node:fs/promises';
import ICAL from 'ical.js';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { launchSharedChromium, type SharedChromium, watchPageErrors } from './support/browser.ts';

const baseUrl = inject('baseUrl');
/** One Chromium; each test a context of its own in it (a zone, JavaScript off): a launch each cost a second of CPU. */
let chromium: SharedChromium;
let browser: BrowserContext | undefined;
beforeAll(async () => {
  chromium = await launchSharedChromium();
});
afterAll(async () => {
  await chromium?.close();
});
afterEach(async () => {
  await browser?.close();
  browser = undefined;
});

const dtstarts = (text: string) =>
  new ICAL.Component(ICAL.parse(text))
    .getAllSubcomponents('vevent')
    .map((event) => (event.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().toISOString());

describe('the window tracker page in Chromium', () => {
  it('with JavaScript: detects the zone, converts as you type, and downloads a calendar that parses', async () => {
    browser = await chromium.newContext({ timezoneId: 'Asia/Shanghai' });
    const page = await browser.newPage();
    await page.goto(`${baseUrl}/tracker`);
    await expect.poll(() => page.inputValue('input[name=tz]')).toBe('Asia/Shanghai');
    await page.selectOption('select[name=provider]', 'provider_b');
    await page.fill('input[name=reset]', '2026-11-21T18:30');
    await expect.poll(() => page.textContent('#tracker-conversions')).toContain('2026-11-21 10:30 UTC');
    expect(await page.inputValue('#ics-url')).toContain(`${baseUrl}/api/ics?provider=provider_b`);

    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#ics-download')]);
    expect(download.suggestedFilename()).toBe('departures-board-provider_b-windows.ics');
    const text = await readFile((await download.path())!, 'utf8');
    expect(dtstarts(text)).toEqual(['2026-11-21T10:30:00.000Z']);
  });

  it('without JavaScript: the GET form answers with the link, and the link answers with the calendar', async () => {
    browser = await chromium.newContext({ javaScriptEnabled: false });
    const page = await browser.newPage();
    await page.goto(`${baseUrl}/zh/tracker`);
    expect(await page.isHidden('#tracker-link')).toBe(true);
    await page.fill('input[name=weekly]', '2026-11-23T09:00');
    await page.fill('input[name=tz]', 'America/New_York');
    await Promise.all([page.waitForURL(/\/zh\/tracker\?/), page.click('button[type=submit]')]);
    expect(await page.textContent('#tracker-conversions')).toContain('2026年11月23日 14:00（UTC）');
    const href = await page.getAttribute('#ics-download', 'href');
    expect(href).toMatch(/^\/api\/ics\?/);
    const response = await fetch(new URL(href!, baseUrl));
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(dtstarts(text)).toEqual(['2026-11-23T14:00:00.000Z']);
    expect(new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent('vevent')!.getFirstPropertyValue('summary')).toBe(
      '供应商 A 的每周窗口重置',
    );
  });

  it('the time-zone pattern compiles under the v flag browsers apply, and checks what it should', async () => {
    browser = await chromium.newContext({ javaScriptEnabled: false });
    const page = await browser.newPage();
    const { errors: consoleErrors } = watchPageErrors(page);
    await page.goto(`${baseUrl}/tracker`);
    const pattern = (await page.getAttribute('input[name=tz]', 'pattern'))!;
    // HTML compiles the attribute as ^(?:pattern)$ with the v flag; an invalid one is ignored with a console error.
    expect(() => new RegExp(`^(?:${pattern})$`, 'v')).not.toThrow();
    const validity = async (value: string) => {
      await page.fill('input[name=tz]', value);
      return page.$eval('input[name=tz]', (input) => (input as HTMLInputElement).validity.patternMismatch);
    };
    expect(await validity('America/Argentina/Buenos_Aires')).toBe(false);
    expect(await validity('Etc/GMT-14')).toBe(false);
    expect(await validity('Etc/GMT+9')).toBe(false);
    expect(await validity('Asia/Tokyo; drop')).toBe(true);
    expect(await validity('Europe Paris')).toBe(true);
    expect(consoleErrors.filter((message) => /pattern/i.test(message))).toEqual([]);
  });
});
