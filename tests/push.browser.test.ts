import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { BrowserContext, Page, Worker } from 'playwright-core';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { queryLocalD1 } from '../scripts/lib/local-d1.ts';
import { TRANSLATIONS } from '../src/core/i18n/index.ts';
import { pushPayload } from '../src/core/push/payload.ts';
import type { Locale } from '../src/core/vocabulary.ts';
import { launchChromium } from './support/browser.ts';
import { uniqueClientIp } from './support/client-ip.ts';
import { publishedFromContent } from './support/published.ts';

/**
 * The browser half of push in Chromium against the served build and its real D1: the worker registers, the
 * "Notify me" control sends the decided body and the server stores it, "stop" forgets it, a push delivered to
 * the worker shows its notification, and the notification's click opens the event's anchor. Offline Chromium
 * reaches no push service, so `PushManager.prototype.subscribe` is replaced (init script below) by one that
 * returns a subscription with a real P-256 key made here; everything after it is the page's own code.
 *
 * The browser is the one every page test drives, on a machine with Node only the headless shell packaged in
 * `@sparticuz/chromium`. That shell is built without a notification service: it keeps the notification
 * permission a profile is granted (`Notification.requestPermission()` and the Permissions API answer
 * "granted"), but `Notification.permission` reads "denied" and `showNotification` rejects, because both ask the
 * service that is not there. So two missing pieces of the browser are stood in for, as the push service is,
 * and nothing of ours: `Notification.permission` answers from the profile's permission (`readPermission`
 * below), and the worker's `showNotification` goes to a notification centre that records what the worker
 * shows (`notificationCentre` below). The push still reaches the worker by Chromium's own path, and the
 * click's navigation is Chromium's. The same stand-ins run in a full Chromium (`CHROMIUM_PATH`), so the test
 * is the same in both.
 */

const baseUrl = inject('baseUrl');
const stateDir = inject('stateDir');
let browser: BrowserContext | undefined;
afterEach(async () => {
  await browser?.close();
  browser = undefined;
});

interface FakeSubscription {
  endpoint: string;
  p256dh: string;
  auth: string;
}

function browserKeys(): FakeSubscription {
  const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const p256dh = Buffer.from(publicKey.export({ format: 'der', type: 'spki' }).subarray(-65)).toString('base64url');
  return {
    endpoint: `https://fcm.googleapis.com/fcm/send/${randomBytes(8).toString('hex')}`,
    p256dh,
    auth: randomBytes(16).toString('base64url'),
  };
}

/** Runs in the page before its scripts: a push manager that answers with `fake` and records what it was asked. */
function replacePushManager(fake: FakeSubscription) {
  const bytes = (base64url: string) =>
    Uint8Array.from(atob(base64url.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0)).buffer;
  const record = globalThis as unknown as { subscribedWith?: unknown[]; unsubscribed?: number };
  record.subscribedWith = [];
  record.unsubscribed = 0;
  // Kept across reloads as a browser keeps its subscription (this tab's session storage holds the server key).
  const stored = 'replaced-push-manager-key';
  const make = (applicationServerKey: ArrayBuffer) => ({
    endpoint: fake.endpoint,
    expirationTime: null,
    options: { userVisibleOnly: true, applicationServerKey },
    getKey: (name: string) => bytes(name === 'auth' ? fake.auth : fake.p256dh),
    toJSON: () => ({ endpoint: fake.endpoint, expirationTime: null, keys: { p256dh: fake.p256dh, auth: fake.auth } }),
    unsubscribe: async () => {
      sessionStorage.removeItem(stored);
      record.unsubscribed! += 1;
      return true;
    },
  });
  PushManager.prototype.subscribe = async function subscribe(options?: PushSubscriptionOptionsInit) {
    const key = Array.from(options?.applicationServerKey as Uint8Array);
    record.subscribedWith!.push({ userVisibleOnly: options?.userVisibleOnly, key });
    sessionStorage.setItem(stored, JSON.stringify(key));
    return make(new Uint8Array(key).buffer) as unknown as PushSubscription;
  };
  PushManager.prototype.getSubscription = async () => {
    const key = sessionStorage.getItem(stored);
    return key === null
      ? null
      : (make(new Uint8Array(JSON.parse(key) as number[]).buffer) as unknown as PushSubscription);
  };
}

/**
 * Runs in the page before its scripts: `Notification.permission` reads the profile's notification permission,
 * as `Notification.requestPermission()` and the Permissions API of the same browser do. The headless shell's
 * own getter asks its missing notification service and reads "denied" whatever was granted. The value is the
 * browser's: "prompt" (nothing granted) reads "default", as the real getter does, until the answer is in.
 */
function readPermission() {
  let permission: NotificationPermission = 'default';
  const fromState = (state: PermissionState): NotificationPermission => (state === 'prompt' ? 'default' : state);
  void navigator.permissions.query({ name: 'notifications' }).then((status) => {
    permission = fromState(status.state);
    status.addEventListener('change', () => {
      permission = fromState(status.state);
    });
  });
  Object.defineProperty(Notification, 'permission', { configurable: true, get: () => permission });
}

async function openWithPush(path: string, fake: FakeSubscription): Promise<Page> {
  browser = await launchChromium({ extraHTTPHeaders: { 'CF-Connecting-IP': uniqueClientIp() } });
  await browser.grantPermissions(['notifications'], { origin: baseUrl });
  await browser.addInitScript(readPermission);
  await browser.addInitScript(replacePushManager, fake);
  const page = await browser.newPage();
  await page.goto(`${baseUrl}${path}`);
  await page.waitForSelector('#notify-form', { state: 'visible' });
  return page;
}

const storedTopics = (endpoint: string) =>
  queryLocalD1(
    stateDir,
    `SELECT s.locale, substr(t.topic, 1, instr(t.topic, '/') - 1) AS provider, substr(t.topic, instr(t.topic, '/') + 1) AS kind FROM subscribers s JOIN subscriber_topics t
     ON t.subscriber_id = s.id WHERE s.channel = 'push' AND s.address = '${endpoint}' ORDER BY provider, kind`,
  );

const writeTo = (page: Page, method: 'POST' | 'DELETE') =>
  page.waitForRequest(
    (request) => request.url() === `${baseUrl}/api/push/subscriptions` && request.method() === method,
  );

describe('the push service worker', () => {
  it('is served as JavaScript that is revalidated at every update check', async () => {
    const response = await fetch(`${baseUrl}/sw.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^(text|application)\/javascript/);
    expect(response.headers.get('cache-control')).toBe('no-cache');
  });

  it('registers for the whole site and controls the page', async () => {
    const page = await openWithPush('/', browserKeys());
    const registered = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      return { script: registration.active?.scriptURL, scope: registration.scope };
    });
    expect(registered).toEqual({ script: `${baseUrl}/sw.js`, scope: `${baseUrl}/` });
    await expect
      .poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL))
      .toBe(`${baseUrl}/sw.js`);
  });
});

describe('the "Notify me" control', () => {
  it('subscribes with the server key, sends the chosen topics and language, which the server stores, and stops', async () => {
    const fake = browserKeys();
    const page = await openWithPush('/zh/provider_b', fake);
    // What the page's reload path reads: the permission granted to this profile (the control stops at "denied").
    await expect.poll(() => page.evaluate(() => Notification.permission)).toBe('granted');
    const { publicKey } = (await (await fetch(`${baseUrl}/api/push/key`)).json()) as { publicKey: string };

    // The provider page's defaults: its provider, resets, the page's language.
    const [first] = await Promise.all([writeTo(page, 'POST'), page.click('[data-notify-save]')]);
    expect(first.headers()['content-type']).toBe('application/json');
    expect(first.postDataJSON()).toEqual({
      subscription: { endpoint: fake.endpoint, expirationTime: null, keys: { p256dh: fake.p256dh, auth: fake.auth } },
      providers: ['provider_b'],
      kinds: ['reset'],
      locale: 'zh',
    });
    expect((await first.response())?.status()).toBe(201);
    expect(await page.evaluate(() => (globalThis as unknown as { subscribedWith: unknown[] }).subscribedWith)).toEqual([
      { userVisibleOnly: true, key: [...Buffer.from(publicKey, 'base64url')] },
    ]);
    await expect.poll(() => page.textContent('[data-notify-status]')).toBe(TRANSLATIONS.zh.notify.status.saved);
    expect(await storedTopics(fake.endpoint)).toEqual([{ locale: 'zh', provider: 'provider_b', kind: 'reset' }]);

    // Changed topics replace the old ones, on the same subscription.
    await page.check('input[name=providers][value=provider_a]');
    await page.check('input[name=kinds][value=boost]');
    await page.selectOption('select[name=locale]', 'en');
    expect(await page.textContent('[data-notify-save]')).toBe(TRANSLATIONS.zh.notify.update);
    const [second] = await Promise.all([writeTo(page, 'POST'), page.click('[data-notify-save]')]);
    expect(second.postDataJSON()).toEqual({
      subscription: { endpoint: fake.endpoint, expirationTime: null, keys: { p256dh: fake.p256dh, auth: fake.auth } },
      providers: ['provider_a', 'provider_b'],
      kinds: ['reset', 'boost'],
      locale: 'en',
    });
    expect((await second.response())?.status()).toBe(200);
    expect(await storedTopics(fake.endpoint)).toEqual([
      { locale: 'en', provider: 'provider_a', kind: 'boost' },
      { locale: 'en', provider: 'provider_a', kind: 'reset' },
      { locale: 'en', provider: 'provider_b', kind: 'boost' },
      { locale: 'en', provider: 'provider_b', kind: 'reset' },
    ]);

    // A reload shows the choices and offers to stop; stopping forgets the endpoint on the server and here.
    await page.reload();
    await expect.poll(() => page.isVisible('[data-notify-stop]')).toBe(true);
    expect(await page.isChecked('input[name=kinds][value=boost]')).toBe(true);
    const [stop] = await Promise.all([writeTo(page, 'DELETE'), page.click('[data-notify-stop]')]);
    expect(stop.postDataJSON()).toEqual({ endpoint: fake.endpoint });
    expect((await stop.response())?.status()).toBe(204);
    await expect.poll(() => page.textContent('[data-notify-status]')).toBe(TRANSLATIONS.zh.notify.status.stopped);
    expect(await page.evaluate(() => (globalThis as unknown as { unsubscribed: number }).unsubscribed)).toBe(1);
    expect(await storedTopics(fake.endpoint)).toEqual([]);
  });

  it('on the board: every provider, resets, English; an empty choice is refused before anything is sent', async () => {
    const fake = browserKeys();
    const page = await openWithPush('/', fake);
    const writes: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/push/subscriptions')) writes.push(request.method());
    });
    await page.uncheck('input[name=kinds][value=reset]');
    await page.click('[data-notify-save]');
    await expect.poll(() => page.textContent('[data-notify-status]')).toBe(TRANSLATIONS.en.notify.status.chooseKind);
    expect(writes).toEqual([]);
    await page.check('input[name=kinds][value=reset]');
    const [request] = await Promise.all([writeTo(page, 'POST'), page.click('[data-notify-save]')]);
    expect(request.postDataJSON()).toMatchObject({
      providers: ['provider_a', 'provider_b', 'provider_c'],
      kinds: ['reset'],
      locale: 'en',
    });
    expect((await request.response())?.status()).toBe(201);
  });
});

/**
 * Runs in the page before its scripts: every text the control's status line shows, in order (each `say` puts a
 * new text node there), so a step that is over by the time the test looks is still seen.
 */
function recordStatusLines() {
  const lines: string[] = [];
  (globalThis as unknown as { statusLines: string[] }).statusLines = lines;
  document.addEventListener('DOMContentLoaded', () => {
    const status = document.querySelector('[data-notify-status]');
    if (status === null) return;
    new MutationObserver((records) => {
      for (const record of records) for (const node of record.addedNodes) lines.push(node.textContent ?? '');
    }).observe(status, { childList: true });
  });
}

const statusLines = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as { statusLines: string[] }).statusLines);

/**
 * A page with the control, the profile's notification permission as `permission` says ("prompt": never asked).
 * "denied" is set through the DevTools protocol (Playwright grants, and clears, but cannot deny).
 */
async function openNotify(
  path: string,
  fake: FakeSubscription,
  permission: 'prompt' | 'granted' | 'denied',
): Promise<Page> {
  browser = await launchChromium({ extraHTTPHeaders: { 'CF-Connecting-IP': uniqueClientIp() } });
  if (permission === 'granted') await browser.grantPermissions(['notifications'], { origin: baseUrl });
  await browser.addInitScript(readPermission);
  await browser.addInitScript(replacePushManager, fake);
  await browser.addInitScript(recordStatusLines);
  const page = await browser.newPage();
  if (permission === 'denied') {
    const cdp = await browser.newCDPSession(page);
    await cdp.send('Browser.setPermission', {
      permission: { name: 'notifications' },
      setting: 'denied',
      origin: baseUrl,
    });
  }
  await page.goto(`${baseUrl}${path}`);
  await page.waitForSelector('#notify-form', { state: 'visible' });
  return page;
}

describe('"Notify me" says each step', () => {
  const words = TRANSLATIONS.en.notify.status;
  const zhWords = TRANSLATIONS.zh.notify.status;

  it('asking while the prompt is open, subscribing while the request is out, then done', async () => {
    const fake = browserKeys();
    const page = await openNotify('/', fake, 'prompt');
    // The person's answer: the headless shell has no prompt to click, so "Allow" is the profile's grant, given
    // while the page waits on `requestPermission`, which then answers from it.
    const seen: Record<string, string | null> = {};
    await page.exposeFunction('answerPrompt', async () => {
      seen['prompt open'] = await page.textContent('[data-notify-status]');
      await browser!.grantPermissions(['notifications'], { origin: baseUrl });
    });
    await page.evaluate(() => {
      const ask = Notification.requestPermission.bind(Notification);
      const answer = (globalThis as unknown as { answerPrompt: () => Promise<void> }).answerPrompt;
      Notification.requestPermission = async () => {
        await answer();
        return ask();
      };
    });
    await page.route(`${baseUrl}/api/push/subscriptions`, async (route) => {
      seen['request out'] = await page.textContent('[data-notify-status]');
      seen['buttons while out'] = String(await page.isDisabled('[data-notify-save]'));
      await route.continue();
    });
    const [saved] = await Promise.all([writeTo(page, 'POST'), page.click('[data-notify-save]')]);
    expect((await saved.response())?.status()).toBe(201);
    await expect.poll(() => page.textContent('[data-notify-status]')).toBe(words.saved);
    expect(seen).toEqual({
      'prompt open': words.asking,
      'request out': words.subscribing,
      'buttons while out': 'true',
    });
    expect(await statusLines(page)).toEqual([words.asking, words.subscribing, words.saved]);
    expect(await page.isDisabled('[data-notify-save]')).toBe(false);
  });

  it('"dismissed" when the prompt closes without an answer, in Chinese, and nothing is sent', async () => {
    const page = await openNotify('/zh/provider_a', browserKeys(), 'prompt');
    const writes: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/push/')) writes.push(request.url());
    });
    // The headless shell closes a permission prompt at once without an answer: the permission stays "default".
    await page.click('[data-notify-save]');
    await expect.poll(() => page.textContent('[data-notify-status]')).toBe(zhWords.dismissed);
    expect(await page.evaluate(() => Notification.permission)).toBe('default');
    expect(await statusLines(page)).toEqual([zhWords.asking, zhWords.dismissed]);
    expect(writes).toEqual([]);
  });

  it('"blocked" when the browser denies, on arrival and on a press, never "asking" or "dismissed"', async () => {
    const page = await openNotify('/provider_b', browserKeys(), 'denied');
    await expect.poll(() => page.textContent('[data-notify-status]')).toBe(words.denied);
    await page.click('[data-notify-save]');
    await expect.poll(() => statusLines(page)).toEqual([words.denied, words.denied]);
    expect(words.denied).not.toBe(words.dismissed);
    expect(words.denied).toMatch(/blocked in your browser’s settings/);
  });

  it('failed, with the reason: the push service’s refusal in its own words', async () => {
    const page = await openNotify('/', browserKeys(), 'granted');
    await page.evaluate(() => {
      PushManager.prototype.subscribe = () =>
        Promise.reject(new DOMException('Registration failed - push service not available', 'AbortError'));
    });
    await page.click('[data-notify-save]');
    const expected = words.pushService.replace('{detail}', 'Registration failed - push service not available');
    await expect.poll(() => page.textContent('[data-notify-status]')).toBe(expected);
    expect(await statusLines(page)).toEqual([words.subscribing, expected]);
  });

  it('failed, with the reason: the server refused the subscription (an address it does not send to)', async () => {
    const fake = { ...browserKeys(), endpoint: 'https://10.0.0.1/push/1' };
    const page = await openNotify('/zh', fake, 'granted');
    const [refused] = await Promise.all([writeTo(page, 'POST'), page.click('[data-notify-save]')]);
    expect((await refused.response())?.status()).toBe(400);
    const expected = zhWords.refused.replace('{detail}', 'HTTP 400');
    await expect.poll(() => page.textContent('[data-notify-status]')).toBe(expected);
    expect(await statusLines(page)).toEqual([zhWords.subscribing, expected]);
  });

  it('failed, with the reason: offline', async () => {
    const page = await openNotify('/provider_c', browserKeys(), 'granted');
    await browser!.setOffline(true);
    await page.click('[data-notify-save]');
    await expect.poll(() => page.textContent('[data-notify-status]')).toBe(words.offline);
    expect(await statusLines(page)).toEqual([words.subscribing, words.offline]);
  });
});

describe('a push and its notification', () => {
  it('shows the payload in the subscription’s language, and its click opens the event’s anchor', async () => {
    const event = (await publishedFromContent()).events.find((candidate) => candidate.provider === 'provider_c')!;
    const fake = browserKeys();
    const page = await openWithPush('/zh/provider_c', fake);
    const [saved] = await Promise.all([writeTo(page, 'POST'), page.click('[data-notify-save]')]);
    expect((await saved.response())?.status()).toBe(201);
    // The payload the queue consumer sends this subscription: made for the language the server stored for it.
    const [stored] = (await storedTopics(fake.endpoint)) as { locale: Locale }[];
    expect(stored?.locale).toBe('zh');
    const payload = pushPayload(event, 'effective', stored!.locale, baseUrl);
    const zh = TRANSLATIONS.zh;
    expect(payload.title).toBe(zh.push.effectiveTitle(zh.providers.provider_c, zh.kinds[event.kind]));

    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    const worker = await siteWorker(page.context());
    await worker.evaluate(notificationCentre);

    // The push itself, as a push service would hand it to the browser (DevTools protocol, ServiceWorker domain):
    // Chromium starts the push event in the worker with the payload as its data.
    const cdp = await page.context().newCDPSession(page);
    const registrationId = new Promise<string>((resolve) =>
      cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
        const ours = registrations.find((registration) => registration.scopeURL === `${baseUrl}/`);
        if (ours !== undefined) resolve(ours.registrationId);
      }),
    );
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: baseUrl,
      registrationId: await registrationId,
      data: JSON.stringify(payload),
    });
    // Read once the push's work is over (the promise the worker handed to `waitUntil` has settled), never during:
    // a full Chromium's `getNotifications()` that runs while a notification is being shown deletes it from the
    // browser's database for good (docs/delivery.md), which is how this test once missed a notification.
    await expect
      .poll(() => worker.evaluate(() => (self as unknown as Centre).extended.map(({ type }) => type)))
      .toEqual(['push']);
    expect(await worker.evaluate(settled)).toEqual(['fulfilled']);
    const shown = () =>
      worker.evaluate(() =>
        (self as unknown as Centre).shown.map(({ title, body, tag, icon, data }) => ({ title, body, tag, icon, data })),
      );
    expect(await shown()).toEqual([
      { title: payload.title, body: payload.body, tag: payload.tag, icon: '/favicon.svg', data: { url: payload.url } },
    ]);

    // The click: a `notificationclick` event in the worker's scope carrying the notification the worker showed.
    // Headless Chromium has no notification to click, and a `NotificationEvent` takes only a notification the
    // browser made (the shell makes none), so the event is an `ExtendableEvent` of that type with the recorded
    // notification: what the listener reads of a click. The worker's own listener takes the open tab of the site
    // to the event's anchor (Chromium's `WindowClient.navigate`) and closes the notification. Without a real
    // click there is no user activation, so `focus()` and `openWindow()` are tested in service-worker.test.ts.
    await worker.evaluate(() => {
      const scope = self as unknown as Centre;
      const click = new scope.ExtendableEvent('notificationclick');
      Object.defineProperty(click, 'notification', { value: scope.shown[0] });
      scope.dispatchEvent(click);
    });
    await page.waitForURL(payload.url);
    expect(await page.isVisible(`#event-${event.id}`)).toBe(true);
    expect(await worker.evaluate(settled)).toEqual(['fulfilled', 'fulfilled']);
    expect(await shown()).toEqual([]);
  });
});

describe('without JavaScript or without push', () => {
  it('explains, and points to the other channels, whose feeds and calendar are the page’s provider’s', async () => {
    browser = await launchChromium({ javaScriptEnabled: false });
    const page = await browser.newPage();
    await page.goto(`${baseUrl}/zh/provider_a`);
    expect(await page.isHidden('#notify-form')).toBe(true);
    expect(await page.textContent('[data-notify-fallback]')).toBe(TRANSLATIONS.zh.notify.fallback);
    // The channels below it (tests/notify-channels.browser.test.ts checks each): the feeds and the calendar here.
    const links = await page.$$eval('#notify-feeds li a, #notify-calendars li a', (anchors) =>
      anchors.map((a) => a.getAttribute('href')),
    );
    expect(links).toEqual([
      '/feed.xml?provider=provider_a',
      '/feed.atom?provider=provider_a',
      '/feed.json?provider=provider_a',
      '/calendar.ics?provider=provider_a',
    ]);
    for (const link of links) expect((await fetch(`${baseUrl}${link}`)).status).toBe(200);
  });

  it('with JavaScript but no push support, the explanation stays and no worker is registered', async () => {
    browser = await launchChromium();
    await browser.addInitScript(() => {
      delete (globalThis as { PushManager?: unknown }).PushManager;
    });
    const page = await browser.newPage();
    await page.goto(`${baseUrl}/`);
    expect(await page.isVisible('[data-notify-fallback]')).toBe(true);
    expect(await page.isHidden('#notify-form')).toBe(true);
    expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0);
  });
});

/** The site's service worker, once Playwright has attached to it. */
async function siteWorker(context: BrowserContext): Promise<Worker> {
  const ours = (worker: Worker) => worker.url() === `${baseUrl}/sw.js`;
  return context.serviceWorkers().find(ours) ?? context.waitForEvent('serviceworker', { predicate: ours });
}

/** A notification as the centre below keeps it: what the worker asked to show, and its `close()`. */
interface RecordedNotification {
  title: string;
  body: string;
  tag: string;
  icon: string;
  data: unknown;
  close(): void;
}

/** The names of a service worker's scope the test uses (the project's types are the Workers runtime's). */
interface Centre {
  ServiceWorkerRegistration: { prototype: { showNotification(title: string, options?: object): Promise<void> } };
  ExtendableEvent: {
    new (type: string): Event;
    prototype: { waitUntil(promise: Promise<unknown>): void };
  };
  dispatchEvent(event: Event): boolean;
  /** Set by `notificationCentre`. */
  shown: RecordedNotification[];
  /** Each promise handed to an event's `waitUntil`, by event type, with how it settled. */
  extended: { type: string; outcome: Promise<string> }[];
}

/** In the worker: how each promise handed to `waitUntil` so far settled, once they all have. */
const settled = () => Promise.all((self as unknown as Centre).extended.map(({ outcome }) => outcome));

/**
 * Runs in the service worker (Playwright's handle on it) before the push: a notification centre in place of the
 * one the headless shell lacks. `showNotification` keeps what the worker asked for (its data copied as the
 * browser copies it) until the notification's `close()`; it checks nothing, so the assertions are on the
 * worker's own call. Every `waitUntil` is recorded with how its promise settles, so the test knows when the
 * worker's work for an event is over and whether it failed. A browser-made event still hands its promise to
 * the browser; the test's click (a script-made event, which Chromium refuses `waitUntil`) is kept alive by the
 * record alone, as a browser keeps a click's event alive.
 */
function notificationCentre() {
  const scope = self as unknown as Centre;
  scope.shown = [];
  scope.extended = [];
  scope.ServiceWorkerRegistration.prototype.showNotification = async (title: string, options: object = {}) => {
    const { body = '', tag = '', icon = '', data = null } = options as Partial<RecordedNotification>;
    const notification: RecordedNotification = {
      title,
      body,
      tag,
      icon,
      data: structuredClone(data),
      close: () => {
        scope.shown = scope.shown.filter((kept) => kept !== notification);
      },
    };
    scope.shown.push(notification);
  };
  const waitUntil = scope.ExtendableEvent.prototype.waitUntil;
  scope.ExtendableEvent.prototype.waitUntil = function recordedWaitUntil(this: Event, promise: Promise<unknown>) {
    scope.extended.push({
      type: this.type,
      outcome: Promise.resolve(promise).then(
        () => 'fulfilled',
        (error: unknown) => `rejected: ${String(error)}`,
      ),
    });
    if (this.isTrusted) waitUntil.call(this, promise);
  };
}
