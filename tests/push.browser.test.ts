import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { queryLocalD1 } from '../scripts/lib/local-d1.ts';
import { TRANSLATIONS } from '../src/core/i18n/index.ts';
import { launchChromium } from './support/browser.ts';
import { uniqueClientIp } from './support/client-ip.ts';
import { publishedFromContent } from './support/published.ts';

/**
 * The browser half of push in Chromium against the served build and its real D1: the worker registers, the
 * "Notify me" control sends the decided body and the server stores it, "stop" forgets it, a push delivered to
 * the worker shows its notification, and the notification's click opens the event's anchor. Offline Chromium
 * reaches no push service, so `PushManager.prototype.subscribe` is replaced (init script below) by one that
 * returns a subscription with a real P-256 key made here; everything after it is the page's own code.
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
    endpoint: `https://push.example.net/send/${randomBytes(8).toString('hex')}`,
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

async function openWithPush(path: string, fake: FakeSubscription): Promise<Page> {
  // Notifications: the full browser where there is one (the packaged headless shell denies them).
  browser = await launchChromium(
    { extraHTTPHeaders: { 'CF-Connecting-IP': uniqueClientIp() } },
    { notifications: true },
  );
  await browser.grantPermissions(['notifications'], { origin: baseUrl });
  await browser.addInitScript(replacePushManager, fake);
  const page = await browser.newPage();
  await page.goto(`${baseUrl}${path}`);
  await page.waitForSelector('#notify-form', { state: 'visible' });
  return page;
}

/** For the tests that need the browser to grant notifications: a clear failure where it cannot (docs/push.md). */
async function expectNotificationsGranted(page: Page) {
  expect(
    await page.evaluate(() => Notification.permission),
    "this Chromium grants no notifications (the packaged headless shell never does): set CHROMIUM_PATH to a full Chromium, such as Debian's chromium package",
  ).toBe('granted');
}

const storedTopics = (endpoint: string) =>
  queryLocalD1(
    stateDir,
    `SELECT s.locale, t.provider, t.kind FROM subscriptions s JOIN subscription_topics t
     ON t.subscription_id = s.id WHERE s.endpoint = '${endpoint}' ORDER BY t.provider, t.kind`,
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
    await expectNotificationsGranted(page);
    const { publicKey } = (await (await fetch(`${baseUrl}/api/push/key`)).json()) as { publicKey: string };

    // The provider page's defaults: its provider, resets, the page's language.
    const [first] = await Promise.all([writeTo(page, 'POST'), page.click('[data-notify-save]')]);
    expect(first.headers()['content-type']).toBe('application/json');
    expect(first.postDataJSON()).toEqual({
      subscription: { endpoint: fake.endpoint, keys: { p256dh: fake.p256dh, auth: fake.auth } },
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
      subscription: { endpoint: fake.endpoint, keys: { p256dh: fake.p256dh, auth: fake.auth } },
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

describe('a push and its notification', () => {
  it('shows the payload as a notification, and its click opens the event’s anchor', async () => {
    const event = (await publishedFromContent()).events.find((candidate) => candidate.provider === 'provider_c')!;
    const payload = {
      title: 'Provider C: reset now',
      body: 'Usage limits were reset for everyone.',
      url: `${baseUrl}/provider_c#event-${event.id}`,
      tag: 'provider_c-reset',
      eventId: event.id,
      provider: 'provider_c',
      kind: 'reset',
      transition: 'effective',
    };
    const page = await openWithPush('/', browserKeys());
    await expectNotificationsGranted(page);
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

    // The push itself, as a push service would hand it to the browser (DevTools protocol, ServiceWorker domain).
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
    const shown = () =>
      page.evaluate(async () =>
        (await (await navigator.serviceWorker.ready).getNotifications()).map((notification) => ({
          title: notification.title,
          body: notification.body,
          tag: notification.tag,
          data: notification.data as unknown,
        })),
      );
    await expect
      .poll(shown)
      .toEqual([{ title: payload.title, body: payload.body, tag: payload.tag, data: { url: payload.url } }]);

    // Headless Chromium has no notification to click: the worker's own listener gets a NotificationEvent made
    // in its scope around the notification it shows, and the open tab of the site goes to the event's anchor.
    const [worker] = page.context().serviceWorkers();
    await worker!.evaluate(async () => {
      const scope = self as unknown as ServiceWorkerGlobalScopeLike;
      const [notification] = await scope.registration.getNotifications();
      scope.dispatchEvent(new scope.NotificationEvent('notificationclick', { notification }));
    });
    await page.waitForURL(payload.url);
    expect(await page.isVisible(`#event-${event.id}`)).toBe(true);
    await expect.poll(shown).toEqual([]);
  });
});

describe('without JavaScript or without push', () => {
  it('explains, and links the feeds and calendar of the page’s provider', async () => {
    browser = await launchChromium({ javaScriptEnabled: false });
    const page = await browser.newPage();
    await page.goto(`${baseUrl}/zh/provider_a`);
    expect(await page.isHidden('#notify-form')).toBe(true);
    expect(await page.textContent('[data-notify-fallback]')).toContain(TRANSLATIONS.zh.notify.fallback);
    const links = await page.$$eval('[data-notify-fallback] a', (anchors) =>
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

/** The few names of a service worker's scope the click uses (the project's types are the Workers runtime's). */
interface ServiceWorkerGlobalScopeLike {
  registration: { getNotifications(): Promise<Notification[]> };
  NotificationEvent: new (type: string, init: { notification: Notification | undefined }) => Event;
  dispatchEvent(event: Event): boolean;
}
