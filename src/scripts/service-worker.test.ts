import { describe, expect, it } from 'vitest';
import { type ServiceWorkerScope, serviceWorker } from './service-worker.ts';

/**
 * The worker's listeners over a recording scope: what Chromium cannot show in a test (it has no notification
 * to click, and opens no window without a real click): the new-window path, and that a payload's URL can never
 * be a script. tests/push.browser.test.ts runs the same code as /sw.js in Chromium.
 */

const ORIGIN = 'https://board.example';
type Listener = (event: object) => void;

function recordingScope(tabs: { url: string; controlled: boolean }[] = []) {
  const listeners = new Map<string, Listener>();
  const shown: { title: string; options: object }[] = [];
  const opened: string[] = [];
  const navigated: string[] = [];
  const scope = {
    location: { origin: ORIGIN },
    registration: {
      showNotification: async (title: string, options: object) => {
        shown.push({ title, options });
      },
    },
    clients: {
      claim: async () => undefined,
      matchAll: async () =>
        tabs.map((tab) => ({
          url: tab.url,
          focus: async () => undefined,
          navigate: async (url: string) => {
            if (!tab.controlled) throw new TypeError('not controlled');
            navigated.push(url);
          },
        })),
      openWindow: async (url: string) => {
        opened.push(url);
      },
    },
    skipWaiting: async () => undefined,
    addEventListener: (type: string, listener: Listener) => listeners.set(type, listener),
  } as unknown as ServiceWorkerScope;
  serviceWorker(scope);
  const dispatch = async (type: string, event: object) => {
    const waited: Promise<unknown>[] = [];
    listeners.get(type)!({ ...event, waitUntil: (promise: Promise<unknown>) => waited.push(promise) });
    await Promise.all(waited);
  };
  return { dispatch, shown, opened, navigated };
}

const click = (url: unknown) => ({ notification: { data: { url }, close: () => undefined } });

describe('the push service worker', () => {
  it('shows the payload’s title, body and tag, and keeps its url', async () => {
    const worker = recordingScope();
    const payload = {
      title: 'Provider A: reset now',
      body: 'Limits reset.',
      tag: 'provider_a-reset',
      url: `${ORIGIN}/provider_a#event-x`,
    };
    await worker.dispatch('push', { data: { json: () => payload } });
    expect(worker.shown).toEqual([
      {
        title: payload.title,
        options: { body: payload.body, tag: payload.tag, data: { url: payload.url }, icon: '/favicon.svg' },
      },
    ]);
  });

  it('still shows something for a push that is not JSON, pointing at the site', async () => {
    const worker = recordingScope();
    await worker.dispatch('push', {
      data: {
        json: () => {
          throw new SyntaxError('not JSON');
        },
      },
    });
    expect(worker.shown).toEqual([
      { title: 'Departures Board', options: { body: '', data: { url: `${ORIGIN}/` }, icon: '/favicon.svg' } },
    ]);
  });

  it('opens a new window when no tab of the site is open', async () => {
    const worker = recordingScope([{ url: 'https://elsewhere.example/', controlled: false }]);
    await worker.dispatch('notificationclick', click(`${ORIGIN}/provider_b#event-y`));
    expect(worker.opened).toEqual([`${ORIGIN}/provider_b#event-y`]);
    expect(worker.navigated).toEqual([]);
  });

  it('takes an open tab of the site to the anchor, or opens a window when that tab is not yet its own', async () => {
    const controlled = recordingScope([{ url: `${ORIGIN}/`, controlled: true }]);
    await controlled.dispatch('notificationclick', click(`${ORIGIN}/provider_c#event-z`));
    expect(controlled.navigated).toEqual([`${ORIGIN}/provider_c#event-z`]);
    expect(controlled.opened).toEqual([]);
    const uncontrolled = recordingScope([{ url: `${ORIGIN}/about`, controlled: false }]);
    await uncontrolled.dispatch('notificationclick', click(`${ORIGIN}/provider_c#event-z`));
    expect(uncontrolled.opened).toEqual([`${ORIGIN}/provider_c#event-z`]);
  });

  it.each(['javascript:alert(1)', 'data:text/html,<script>alert(1)</script>', 42])(
    'never opens %s: the site instead',
    async (url) => {
      const worker = recordingScope();
      await worker.dispatch('notificationclick', click(url));
      expect(worker.opened).toEqual([`${ORIGIN}/`]);
    },
  );
});
