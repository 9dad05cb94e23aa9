/**
 * The service worker served at `/sw.js` (src/pages/sw.js.ts): it shows each push as a notification and opens
 * the event's anchor when the notification is clicked. The page serves this one function's source, called with
 * the worker's global scope, so it must not use anything from outside its body (no imports, no module names).
 * The few worker types it needs are declared here: the project's types are the Workers runtime's, not the
 * browser's service worker library.
 */

interface PushPayload {
  readonly title?: unknown;
  readonly body?: unknown;
  readonly tag?: unknown;
  readonly url?: unknown;
}

interface ShownNotification {
  readonly data: unknown;
  close(): void;
}

interface WindowClientLike {
  readonly url: string;
  focus(): Promise<unknown>;
  navigate(url: string): Promise<unknown>;
}

interface ExtendableEventLike {
  waitUntil(promise: Promise<unknown>): void;
}

export interface ServiceWorkerScope {
  readonly location: { readonly origin: string };
  readonly registration: {
    showNotification(
      title: string,
      options: { body: string; tag?: string; data: { url: string }; icon: string; lang?: string },
    ): Promise<void>;
  };
  readonly clients: {
    claim(): Promise<void>;
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<readonly WindowClientLike[]>;
    openWindow(url: string): Promise<unknown>;
  };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEventLike) => void): void;
  addEventListener(
    type: 'push',
    listener: (event: ExtendableEventLike & { readonly data: { json(): unknown } | null }) => void,
  ): void;
  addEventListener(
    type: 'notificationclick',
    listener: (event: ExtendableEventLike & { readonly notification: ShownNotification }) => void,
  ): void;
}

export function serviceWorker(scope: ServiceWorkerScope): void {
  // A new deploy's worker takes over at once: it holds no state and no cache that an old page could depend on.
  scope.addEventListener('install', (event) => event.waitUntil(scope.skipWaiting()));
  scope.addEventListener('activate', (event) => event.waitUntil(scope.clients.claim()));

  /** Only a web address opens: the payload comes from our server, but a notification must never run a script URL. */
  const webUrl = (value: unknown): string => {
    try {
      const url = new URL(typeof value === 'string' ? value : '/', scope.location.origin);
      return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : `${scope.location.origin}/`;
    } catch {
      return `${scope.location.origin}/`;
    }
  };
  const text = (value: unknown): string => (typeof value === 'string' ? value : '');

  scope.addEventListener('push', (event) => {
    let payload: PushPayload = {};
    try {
      payload = (event.data?.json() ?? {}) as PushPayload;
    } catch {
      // Not JSON: still a push the user asked for, shown with the site's name (userVisibleOnly).
    }
    const tag = text(payload.tag);
    event.waitUntil(
      scope.registration.showNotification(text(payload.title) || 'Departures Board', {
        body: text(payload.body),
        ...(tag === '' ? {} : { tag }),
        data: { url: webUrl(payload.url) },
        icon: '/favicon.svg',
      }),
    );
  });

  scope.addEventListener('notificationclick', (event) => {
    event.notification.close();
    const data = event.notification.data as { url?: unknown } | null;
    const url = webUrl(data?.url);
    const open = async () => {
      const windows = await scope.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const tab = windows.find((client) => new URL(client.url).origin === new URL(url).origin);
      if (tab !== undefined) {
        // Focusing needs the click's permission; navigating only that this worker controls the tab.
        await tab.focus().catch(() => undefined);
        try {
          await tab.navigate(url);
          return;
        } catch {
          // A tab this worker does not control yet cannot be navigated: open a new one instead.
        }
      }
      await scope.clients.openWindow(url);
    };
    event.waitUntil(open());
  });
}
