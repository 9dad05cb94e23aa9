import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { queryLocalD1 } from '../scripts/lib/local-d1.ts';
import { type RunningServer, startServer } from '../scripts/lib/local-server.ts';
import { TRANSLATIONS } from '../src/core/i18n/index.ts';
import type { Locale } from '../src/core/vocabulary.ts';
import { axeViolations, RULES_A_COLOUR_SCHEME_CHANGES } from './support/axe.ts';
import { launchSharedChromium, type SharedChromium } from './support/browser.ts';
import { type ChatReceiver, startChatReceiver } from './support/chat-receiver.ts';
import { uniqueClientIp } from './support/client-ip.ts';
import { scaled } from '../scripts/lib/load-scaled.ts';

/**
 * "Notify me" offers every channel (decisions.md, "Chat webhooks (Discord, Slack)", last point) on the board and the
 * provider pages, in both languages, in Chromium against the served build with its real local D1: browser push
 * (tests/push.browser.test.ts tests its control), Discord and Slack, feed readers and the WebSub hub, calendars, the
 * terminal's status line. Without JavaScript each channel that can works, and the Discord/Slack form, which cannot
 * send JSON, shows the curl command in its place; the test runs that command's request against the server. With
 * JavaScript the form connects and stops a webhook, and says the server's refusal in words. The expected links,
 * bodies and rows are written here by hand; the words are the locale's own.
 *
 * A new webhook is sent a message saying it is connected, and a platform that refuses it refuses the write
 * (docs/delivery.md): so the webhooks are the chat receiver's on loopback, written to a server of this file's own over
 * the same build with the loopback switch on (never the shared server's, nor Discord's or Slack's real hosts).
 */

const baseUrl = inject('baseUrl');
let webhookServer: RunningServer;
let receiver: ChatReceiver;
beforeAll(async () => {
  receiver = await startChatReceiver();
  webhookServer = await startServer({
    workerConfig: join(inject('builtDir'), 'server/wrangler.json'),
    vars: { ALLOW_LOOPBACK_RECEIVERS: 'true' },
  });
}, scaled(120_000));
afterAll(async () => {
  await webhookServer?.stop();
  await receiver?.close();
});

interface PageCase {
  path: string;
  locale: Locale;
  /** The providers the page's choices and links cover, in the enumeration's order. */
  providers: string[];
  /** The `?provider=` of the page's links (empty on the board). */
  query: string;
}
const ALL = ['provider_a', 'provider_b', 'provider_c'];
const PAGES: PageCase[] = [
  { path: '/', locale: 'en', providers: ALL, query: '' },
  { path: '/zh', locale: 'zh', providers: ALL, query: '' },
  { path: '/provider_b', locale: 'en', providers: ['provider_b'], query: '?provider=provider_b' },
  { path: '/zh/provider_c', locale: 'zh', providers: ['provider_c'], query: '?provider=provider_c' },
];
const CHANNELS = ['browser', 'chat', 'telegram', 'ntfy', 'feeds', 'calendars', 'terminal', 'hooks'] as const;
const PLACEHOLDER = 'https://discord.com/api/webhooks/<id>/<token>';

// One Chromium for the file; each page in a context of its own (a fresh profile, the options of its test).
let chromium: SharedChromium;
beforeAll(async () => {
  chromium = await launchSharedChromium();
}, scaled(60_000));
afterAll(() => chromium?.close());
let browser: BrowserContext | undefined;
afterEach(async () => {
  await browser?.close();
  browser = undefined;
});

async function open(path: string, options: { javaScript: boolean; width?: number; origin?: string }): Promise<Page> {
  browser = await chromium.newContext({
    javaScriptEnabled: options.javaScript,
    extraHTTPHeaders: { 'CF-Connecting-IP': uniqueClientIp() },
  });
  const page = await browser.newPage();
  await page.setViewportSize({ width: options.width ?? 1280, height: 900 });
  const response = await page.goto(`${options.origin ?? baseUrl}${path}`);
  expect(response?.status()).toBe(200);
  return page;
}

/** Opens every channel's disclosure by clicking its summary, as a person does (no script needed). */
async function openEveryChannel(page: Page): Promise<void> {
  for (const details of await page.$$('#notify details.channel:not([open])'))
    await (await details.$('summary'))!.click();
  expect(
    await page.$$eval('#notify details.channel', (all) => all.every((details) => details.hasAttribute('open'))),
  ).toBe(true);
}

const hrefs = (page: Page, selector: string) =>
  page.$$eval(selector, (links) => links.map((link) => link.getAttribute('href')));

/** A shell word in single quotes, as a POSIX shell reads it (enough for the commands shown: no `'` inside). */
function singleQuoted(word: string): string {
  expect(word.startsWith("'") && word.endsWith("'")).toBe(true);
  return word.slice(1, -1);
}

/**
 * What curl would send for the page's command `curl -X <method> '<url>' -H 'Content-Type: application/json' \`
 * `  -d '<json>'`, read by a parser of that shape alone, written here.
 */
function curlRequest(command: string): { method: string; url: string; contentType: string; body: string } {
  const match = /^curl -X (POST|DELETE) ('[^']*') -H ('[^']*') \\\n {2}-d ('[^']*')$/.exec(command);
  expect(match, command).not.toBeNull();
  const [, method, url, header, body] = match!;
  const [name, value] = singleQuoted(header!).split(': ');
  expect(name).toBe('Content-Type');
  return { method: method!, url: singleQuoted(url!), contentType: value!, body: singleQuoted(body!) };
}

/** Sends what curl would, from a client address of its own, to the file's own server (the page names the shared one). */
const run = (request: ReturnType<typeof curlRequest>, body = request.body) =>
  fetch(request.url.replace(baseUrl, webhookServer.baseUrl), {
    method: request.method,
    headers: { 'Content-Type': request.contentType, 'CF-Connecting-IP': uniqueClientIp() },
    body,
  });

/** The stored webhook for `url` and its topics, read from the D1 of the file's own server. */
async function storedWebhook(url: string) {
  const rows = await queryLocalD1(
    webhookServer.stateDir,
    `SELECT w.channel AS platform, w.locale, substr(t.topic, 1, instr(t.topic, '/') - 1) AS provider, substr(t.topic, instr(t.topic, '/') + 1) AS kind
     FROM subscribers w JOIN subscriber_topics t ON t.subscriber_id = w.id WHERE w.address = '${url}'
     ORDER BY provider, kind`,
  );
  return rows.map((row) => `${row['platform']} ${row['locale']} ${row['provider']} ${row['kind']}`);
}

let sequence = 0;
/** A new Discord webhook on the chat receiver (Discord's path form, src/core/outbound/chat-platform.ts). */
const uniqueDiscordUrl = () => {
  sequence += 1;
  return `${receiver.origin}/api/webhooks/${sequence}/token-${sequence}`;
};
/** The messages the receiver took for `url`: their titles (Discord's `content`, Slack's `text`). */
const toldAt = (url: string) =>
  receiver.received
    .filter((message) => `${receiver.origin}${message.path}` === url)
    .map(
      (message) =>
        (message.body as { content?: string; text?: string }).content ?? (message.body as { text?: string }).text,
    );
const CONNECTED: Readonly<Record<string, string>> = {
  en: 'Connected to Departures Board',
  zh: '已连接到 Departures Board',
};

describe('every channel, in both languages, without JavaScript', () => {
  it.each(PAGES)('$path offers each channel in its language', async ({ path, locale, providers, query }) => {
    const words = TRANSLATIONS[locale].notifyChannels;
    const page = await open(path, { javaScript: false });
    expect(
      await page.$$eval('#notify details.channel > summary', (all) => all.map((s) => s.textContent?.trim())),
    ).toEqual(CHANNELS.map((channel) => words.summaries[channel]));
    // Browser push first and open; the others a line each until opened.
    expect(await page.$$eval('#notify details.channel[open]', (all) => all.map((details) => details.id))).toEqual([
      'notify-browser',
    ]);
    await openEveryChannel(page);

    // Browser push: without JavaScript it explains, and points to the others.
    expect(await page.isHidden('#notify-form')).toBe(true);
    expect(await page.textContent('[data-notify-fallback]')).toBe(TRANSLATIONS[locale].notify.fallback);

    // Discord and Slack: no form that cannot work, the curl commands of this page's providers and language instead.
    expect(await page.isHidden('#chat-webhook-form')).toBe(true);
    expect(await page.textContent('[data-chat-fallback] p')).toBe(words.chat.noScript);
    const connect = curlRequest((await page.textContent('[data-chat-command=connect]'))!);
    const stop = curlRequest((await page.textContent('[data-chat-command=stop]'))!);
    expect(connect).toEqual({
      method: 'POST',
      url: `${baseUrl}/api/webhooks`,
      contentType: 'application/json',
      body: JSON.stringify({ url: PLACEHOLDER, providers, kinds: ['reset'], locale }),
    });
    expect(stop).toEqual({ ...connect, method: 'DELETE', body: JSON.stringify({ url: PLACEHOLDER }) });
    // Run as shown, with a webhook URL in place of the example: connected, as the page's choices say; then stopped.
    const url = uniqueDiscordUrl();
    const connected = await run(connect, connect.body.replace(PLACEHOLDER, url));
    expect(connected.status).toBe(201);
    expect(await connected.json()).toEqual({ platform: 'discord', providers, kinds: ['reset'], locale });
    expect(await storedWebhook(url)).toEqual(providers.map((provider) => `discord ${locale} ${provider} reset`));
    expect(toldAt(url)).toEqual([CONNECTED[locale]]);
    expect((await run(stop, stop.body.replace(PLACEHOLDER, url))).status).toBe(204);
    expect(await storedWebhook(url)).toEqual([]);

    // Feed readers: every format of each provider the page covers (the board: all of them, then each), and the hub
    // the feeds themselves name.
    const groups = query === '' ? ['', ...ALL.map((provider) => `?provider=${provider}`)] : [query];
    const feeds = groups.flatMap((group) => ['/feed.xml', '/feed.atom', '/feed.json'].map((feed) => `${feed}${group}`));
    expect(await hrefs(page, '#notify-feeds li a')).toEqual(feeds);
    const hub = await page.textContent('#notify-feeds [data-websub-hub]');
    expect(hub).toBe(`${baseUrl}/websub`);
    expect(await page.textContent('#notify-feeds')).toContain(words.feeds.websub);
    for (const feed of feeds) {
      const response = await fetch(`${baseUrl}${feed}`);
      expect(response.status, feed).toBe(200);
      expect(response.headers.get('link'), feed).toContain(`<${hub}>; rel="hub"`);
    }
    expect(await hrefs(page, '#notify-feeds p a')).toEqual([locale === 'zh' ? '/zh/api' : '/api']);

    // Calendars: the calendar of the same providers to subscribe to, and the tracker for your own windows.
    const calendars = groups.map((group) => `/calendar.ics${group}`);
    expect(await hrefs(page, '#notify-calendars li a')).toEqual(calendars);
    for (const calendar of calendars) {
      const response = await fetch(`${baseUrl}${calendar}`);
      expect(response.status, calendar).toBe(200);
      expect(response.headers.get('content-type'), calendar).toMatch(/^text\/calendar/);
    }
    expect(await hrefs(page, '#notify-calendars p a')).toEqual([locale === 'zh' ? '/zh/tracker' : '/tracker']);

    // The terminal: the command, and what it prints (the status words do not move in a test's minute; days since
    // the last reset may tick by 0.1 between the page and the request).
    const [command, ...printed] = (await page.textContent('[data-status-text]'))!.trimEnd().split('\n');
    expect(command).toBe(`$ curl -fs "${baseUrl}/api/status.txt${query}"`);
    const answer = await (await fetch(`${baseUrl}/api/status.txt${query}`)).text();
    const fields = (line: string) => line.split('\t');
    const answered = answer.trimEnd().split('\n').map(fields);
    expect(printed.map(fields).map(([id, status, , next]) => [id, status, next])).toEqual(
      answered.map(([id, status, , next]) => [id, status, next]),
    );
    expect(printed.map((line) => fields(line)[0])).toEqual(providers);
    for (const [index, line] of printed.entries()) {
      const shown = fields(line)[2]!;
      const now = answered[index]![2]!;
      if (shown === '-') expect(now).toBe('-');
      else expect(Math.abs(Number(shown) - Number(now))).toBeLessThanOrEqual(0.1 + 1e-9);
    }
    expect(await page.textContent('#notify-terminal')).toContain(
      `set -g status-right '#(curl -fs --max-time 2 "${baseUrl}/api/status.txt?provider=${providers[0]}" | cut -f2)'`,
    );
  });
});

/** Each test's page with JavaScript, its Discord/Slack channel open and its form shown by the script. */
async function openChatForm(path: string): Promise<Page> {
  // From the file's own server: the form writes to the page's own origin.
  const page = await open(path, { javaScript: true, origin: webhookServer.baseUrl });
  await page.click('#notify-chat > summary');
  // Shown by the page's script once it runs: on a machine busy with other runs that took over 30 s once.
  await page.waitForSelector('#chat-webhook-form', { state: 'visible', timeout: scaled(50_000) });
  expect(await page.isHidden('[data-chat-fallback]')).toBe(true);
  return page;
}

const writeTo = (page: Page, method: 'POST' | 'DELETE') =>
  page.waitForRequest(
    (request) => request.url() === `${webhookServer.baseUrl}/api/webhooks` && request.method() === method,
  );

const chatStatus = (page: Page) => page.textContent('[data-chat-status]');

describe('the Discord and Slack form, with JavaScript', () => {
  it('connects a Discord webhook (201), replaces its choices (200) and stops it (204), saying each', async () => {
    const words = TRANSLATIONS.en.notifyChannels.chat.status;
    const page = await openChatForm('/provider_b');
    const url = uniqueDiscordUrl();
    await page.fill('#chat-webhook-form input[name=url]', url);
    const [first] = await Promise.all([writeTo(page, 'POST'), page.click('[data-chat-connect]')]);
    expect(first.headers()['content-type']).toBe('application/json');
    expect(first.postDataJSON()).toEqual({ url, providers: ['provider_b'], kinds: ['reset'], locale: 'en' });
    expect((await first.response())?.status()).toBe(201);
    await expect
      .poll(() => chatStatus(page))
      .toBe('Connected: the announcements you chose will be posted to this Discord channel.');
    expect(words.created).toContain('{platform}');
    expect(await storedWebhook(url)).toEqual(['discord en provider_b reset']);
    expect(toldAt(url)).toEqual([CONNECTED.en]);

    await page.check('#chat-webhook-form input[name=kinds][value=boost]');
    const [second] = await Promise.all([writeTo(page, 'POST'), page.click('[data-chat-connect]')]);
    expect(second.postDataJSON()).toEqual({ url, providers: ['provider_b'], kinds: ['reset', 'boost'], locale: 'en' });
    expect((await second.response())?.status()).toBe(200);
    await expect.poll(() => chatStatus(page)).toBe(words.replaced.replace('{platform}', 'Discord'));
    expect(await storedWebhook(url)).toEqual(['discord en provider_b boost', 'discord en provider_b reset']);
    // New choices are not posted: the channel was told once, when it was connected.
    expect(toldAt(url)).toEqual([CONNECTED.en]);

    const [stop] = await Promise.all([writeTo(page, 'DELETE'), page.click('[data-chat-stop]')]);
    expect(stop.postDataJSON()).toEqual({ url });
    expect((await stop.response())?.status()).toBe(204);
    await expect.poll(() => chatStatus(page)).toBe(words.stopped);
    expect(await storedWebhook(url)).toEqual([]);
  });

  it('shows the server’s 400 in words for an address that is no Discord or Slack webhook', async () => {
    const page = await openChatForm('/');
    const url = 'https://example.com/hooks/1';
    await page.fill('#chat-webhook-form input[name=url]', url);
    const [refused] = await Promise.all([writeTo(page, 'POST'), page.click('[data-chat-connect]')]);
    const response = (await refused.response())!;
    expect(response.status()).toBe(400);
    const body = (await response.json()) as { error: string; issues: { path: string[]; message: string }[] };
    expect(body.error).toBe('invalid_request');
    const [issue] = body.issues;
    expect(issue?.path).toEqual(['url']);
    // The decided refusal: only a Discord webhook or a Slack incoming webhook.
    expect(issue?.message).toMatch(/Discord webhook .* Slack incoming webhook/);
    await expect.poll(() => chatStatus(page)).toBe(`The service does not post to that address: ${issue?.message}`);
    expect(await storedWebhook(url)).toEqual([]);
  });

  it('shows the platform’s refusal of the connected message in the server’s words, and nothing is stored', async () => {
    const page = await openChatForm('/');
    const url = uniqueDiscordUrl();
    receiver.answerNext(url.slice(receiver.origin.length), {
      status: 404,
      headers: { 'content-type': 'application/json' },
      body: '{"message": "Unknown Webhook", "code": 10015}',
    });
    await page.fill('#chat-webhook-form input[name=url]', url);
    const [refused] = await Promise.all([writeTo(page, 'POST'), page.click('[data-chat-connect]')]);
    const response = (await refused.response())!;
    expect(response.status()).toBe(400);
    const body = (await response.json()) as { issues: { path: string[]; message: string }[] };
    expect(body.issues).toHaveLength(1);
    expect(body.issues[0]!.path).toEqual(['url']);
    expect(body.issues[0]!.message).toMatch(/^Discord answered HTTP 404 to a test message/);
    await expect
      .poll(() => chatStatus(page))
      .toBe(`The service does not post to that address: ${body.issues[0]!.message}`);
    expect(await storedWebhook(url)).toEqual([]);
  });

  it('in Chinese: a Slack webhook with every provider; nothing chosen is said before anything is sent', async () => {
    const words = TRANSLATIONS.zh.notifyChannels.chat.status;
    const page = await openChatForm('/zh');
    const writes: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/webhooks')) writes.push(request.method());
    });
    sequence += 1;
    const url = `${receiver.origin}/services/T0/B${sequence}/secret`;
    await page.fill('#chat-webhook-form input[name=url]', url);
    for (const provider of ALL) await page.uncheck(`#chat-webhook-form input[name=providers][value=${provider}]`);
    await page.click('[data-chat-connect]');
    await expect.poll(() => chatStatus(page)).toBe(words.chooseProvider);
    expect(writes).toEqual([]);

    for (const provider of ALL) await page.check(`#chat-webhook-form input[name=providers][value=${provider}]`);
    const [request] = await Promise.all([writeTo(page, 'POST'), page.click('[data-chat-connect]')]);
    expect(request.postDataJSON()).toEqual({ url, providers: ALL, kinds: ['reset'], locale: 'zh' });
    expect((await request.response())?.status()).toBe(201);
    await expect.poll(() => chatStatus(page)).toBe('已连接：你选择的公告将发到这个 Slack 频道。');
    expect(await storedWebhook(url)).toEqual(ALL.map((provider) => `slack zh ${provider} reset`));
    expect(toldAt(url)).toEqual([CONNECTED.zh]);
    const [stop] = await Promise.all([writeTo(page, 'DELETE'), page.click('[data-chat-stop]')]);
    expect((await stop.response())?.status()).toBe(204);
    await expect.poll(() => chatStatus(page)).toBe(words.stopped);
  });
});

describe('on a phone, and for everyone', () => {
  /**
   * axe-core's violations in the "Notify me" section as it is now (every channel open); tests/website.browser.test.ts
   * checks whole pages at desktop width, channels closed. The section alone: this file is about it, and a phone's
   * scrolling chart frame is the charts' own matter.
   */
  const notifySection = ['#notify'];

  it.each(PAGES)(
    '$path at 320 px, every channel open, with and without its scripts: nothing scrolls sideways, axe finds nothing',
    async ({ path }) => {
      for (const scripts of [true, false]) {
        // Without its scripts the page is what a browser without JavaScript shows (the form hidden, the curl
        // commands shown); the browser's own JavaScript stays on for axe, which the driver evaluates.
        browser = await chromium.newContext({ extraHTTPHeaders: { 'CF-Connecting-IP': uniqueClientIp() } });
        const page = await browser.newPage();
        if (!scripts) await page.route(/\.js$/, (route) => route.abort());
        await page.setViewportSize({ width: 320, height: 700 });
        expect((await page.goto(`${baseUrl}${path}`))?.status()).toBe(200);
        await openEveryChannel(page);
        await page.waitForSelector(scripts ? '#chat-webhook-form' : '[data-chat-fallback]', { state: 'visible' });
        expect(await page.isVisible(scripts ? '[data-chat-fallback]' : '#chat-webhook-form')).toBe(false);
        expect(
          await page.evaluate(() => document.documentElement.scrollWidth),
          `${path} scripts=${scripts}`,
        ).toBeLessThanOrEqual(320);
        expect(await axeViolations(page, { include: notifySection })).toEqual([]);
        await page.emulateMedia({ colorScheme: 'dark' });
        expect(await axeViolations(page, { include: notifySection, rules: RULES_A_COLOUR_SCHEME_CHANGES })).toEqual([]);
        await browser.close();
        browser = undefined;
      }
    },
  );
});
