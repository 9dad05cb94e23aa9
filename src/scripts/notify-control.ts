import type { Translations } from '../core/i18n/index.ts';

/**
 * The "Notify me" control (src/components/NotifyControl.astro): registers `/sw.js`, subscribes this browser
 * with the server's VAPID key, sends the chosen topics (`POST /api/push/subscriptions`, the decided body), and
 * stops (`DELETE` with the endpoint). Without push support it leaves the page's explanation and feed links as
 * they are. The words come from the page's data attributes, so that the script carries none of its own.
 */

const SUBSCRIPTIONS = '/api/push/subscriptions';
/** Where this browser remembers its last choices, to show them again (the server has no read endpoint). */
const CHOICES_KEY = 'departures-board-notify';

/** The status lines the page hands over (a type only: the words themselves stay out of the script). */
type StatusWord = keyof Translations['notify']['status'];

interface Choices {
  providers: string[];
  kinds: string[];
  locale: string;
}

const pushSupported = () =>
  'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window && window.isSecureContext;

/** base64url (the key's form in JSON) to the bytes `applicationServerKey` takes. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64url.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (character) => character.charCodeAt(0));
}

const sameBytes = (left: ArrayBuffer | null, right: Uint8Array) =>
  left !== null && left.byteLength === right.length && new Uint8Array(left).every((byte, i) => byte === right[i]);

/** What the page says: a status word, and for some the detail that fills its `{detail}`. */
interface Said {
  word: StatusWord;
  detail?: string;
}

/**
 * A refusal by this server. 429: the write limit (10 a minute); 503: this server has no push now (no keys or
 * database, as under `npm run dev`, or its database is unavailable for a while); anything else with its status.
 */
const refusal = (status: number): Said =>
  status === 429
    ? { word: 'busy' }
    : status === 503
      ? { word: 'unavailable' }
      : { word: 'refused', detail: `HTTP ${status}` };

/** Thrown with what the page should say, from a step that knows its failure better than a bare error does. */
class Refused extends Error {
  readonly said: Said;
  constructor(said: Said) {
    super(said.word);
    this.said = said;
  }
}

/**
 * Why a step threw. `fetch` rejects with a TypeError only when the request never got an answer (offline, the
 * connection lost); the push service's refusal comes from `pushManager.subscribe` (an AbortError or
 * NotAllowedError with the browser's own message); anything else is named by its message.
 */
function failureOf(error: unknown, step: 'send' | 'pushService'): Said {
  if (error instanceof Refused) return error.said;
  const detail = error instanceof Error ? error.message || error.name : String(error);
  if (step === 'pushService') return { word: 'pushService', detail };
  if (error instanceof TypeError) return { word: 'offline' };
  return { word: 'failed', detail };
}

const sendJson = (method: 'POST' | 'DELETE', body: unknown) =>
  fetch(SUBSCRIPTIONS, { method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

export function enhanceNotifyControl(document: Document): void {
  const root = document.querySelector<HTMLElement>('[data-notify]');
  const form = root?.querySelector<HTMLFormElement>('#notify-form') ?? null;
  if (root === null || form === null || !pushSupported()) return;
  const words = JSON.parse(root.dataset['words'] ?? '{}') as Record<StatusWord, string>;
  const saveButton = form.querySelector<HTMLButtonElement>('[data-notify-save]')!;
  const stopButton = form.querySelector<HTMLButtonElement>('[data-notify-stop]')!;
  const status = form.querySelector<HTMLElement>('[data-notify-status]')!;
  const language = form.querySelector('select')!;
  const say = ({ word, detail = '' }: Said) => {
    status.textContent = (words[word] ?? word).replace('{detail}', detail);
  };
  /** While a step runs, the buttons wait (a second press would start it again). */
  const busy = (running: boolean) => {
    saveButton.disabled = running;
    stopButton.disabled = running;
  };
  const subscribeLabel = saveButton.textContent;
  const showSubscribed = (subscribed: boolean) => {
    stopButton.hidden = !subscribed;
    saveButton.textContent = subscribed ? (root.dataset['update'] ?? subscribeLabel) : subscribeLabel;
  };
  const checked = (name: string) =>
    [...form.querySelectorAll<HTMLInputElement>(`input[name=${name}]`)]
      .filter((box) => box.checked)
      .map((box) => box.value);

  // The control appears once the worker runs; until then (or if it cannot register) the explanation stays.
  const registration = navigator.serviceWorker.register('/sw.js').then(() => navigator.serviceWorker.ready);
  registration
    .then(async (ready) => {
      root.querySelector<HTMLElement>('[data-notify-fallback]')!.hidden = true;
      form.hidden = false;
      if (Notification.permission === 'denied') return say({ word: 'denied' });
      if ((await ready.pushManager.getSubscription()) === null) return;
      const remembered = localStorage.getItem(CHOICES_KEY);
      if (remembered !== null) {
        const choices = JSON.parse(remembered) as Choices;
        for (const box of form.querySelectorAll<HTMLInputElement>('input[type=checkbox]'))
          box.checked = (box.name === 'providers' ? choices.providers : choices.kinds).includes(box.value);
        language.value = choices.locale;
      }
      showSubscribed(true);
      say({ word: 'subscribed' });
    })
    .catch(() => undefined);

  form.addEventListener('submit', (submitted) => {
    submitted.preventDefault();
    const choices: Choices = {
      providers: checked('providers'),
      kinds: checked('kinds'),
      locale: language.value,
    };
    if (choices.providers.length === 0) return say({ word: 'chooseProvider' });
    if (choices.kinds.length === 0) return say({ word: 'chooseKind' });
    void (async () => {
      busy(true);
      let step: 'send' | 'pushService' = 'send';
      try {
        const ready = await registration;
        // "default" until the person answers: the browser's prompt is open while this waits.
        if (Notification.permission === 'default') say({ word: 'asking' });
        const permission = await Notification.requestPermission();
        // Still "default" after the prompt: it was closed without an answer, which asking again can change.
        if (permission === 'denied') return say({ word: 'denied' });
        if (permission !== 'granted') return say({ word: 'dismissed' });
        say({ word: 'subscribing' });
        const key = await fetch('/api/push/key');
        if (!key.ok) throw new Refused(refusal(key.status));
        const { publicKey } = (await key.json()) as { publicKey: string };
        const applicationServerKey = keyBytes(publicKey);
        step = 'pushService';
        let subscription = await ready.pushManager.getSubscription();
        // A subscription made for another server key (the keys were rotated) cannot receive our pushes.
        if (subscription !== null && !sameBytes(subscription.options.applicationServerKey, applicationServerKey)) {
          await subscription.unsubscribe();
          subscription = null;
        }
        subscription ??= await ready.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey });
        step = 'send';
        // expirationTime too: the server sends nothing to a subscription past it (docs/delivery.md).
        const { endpoint, expirationTime, keys } = subscription.toJSON();
        const response = await sendJson('POST', {
          subscription: {
            endpoint,
            expirationTime: expirationTime ?? null,
            keys: { p256dh: keys?.['p256dh'], auth: keys?.['auth'] },
          },
          ...choices,
        });
        if (!response.ok) throw new Refused(refusal(response.status));
        localStorage.setItem(CHOICES_KEY, JSON.stringify(choices));
        showSubscribed(true);
        say({ word: 'saved' });
      } catch (error) {
        say(failureOf(error, step));
      } finally {
        busy(false);
      }
    })();
  });

  stopButton.addEventListener('click', () => {
    void (async () => {
      busy(true);
      try {
        const subscription = await (await registration).pushManager.getSubscription();
        if (subscription !== null) {
          const response = await sendJson('DELETE', { endpoint: subscription.endpoint });
          if (!response.ok) throw new Refused(refusal(response.status));
          await subscription.unsubscribe();
        }
        localStorage.removeItem(CHOICES_KEY);
        showSubscribed(false);
        say({ word: 'stopped' });
      } catch (error) {
        say(failureOf(error, 'send'));
      } finally {
        busy(false);
      }
    })();
  });
}
