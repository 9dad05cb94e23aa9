import { CHAT_WEBHOOKS_PATH } from '../core/chat/connect-commands.ts';
import type { Translations } from '../core/i18n/index.ts';

/**
 * The Discord and Slack form of "Notify me" (src/components/ChatWebhookChannel.astro): connects a channel's
 * webhook with `POST /api/webhooks` and stops it with `DELETE` (the decided JSON bodies), and says the answer in
 * words. An HTML form cannot send JSON, so the page shows the curl commands instead; this script shows the form
 * and hides them. The words come from the page's data attributes, as the push control's do.
 */

type StatusWord = keyof Translations['notifyChannels']['chat']['status'];
type Words = Record<StatusWord, string>;

/** The 400 body of the write path: `issues` with the server's own message for each. */
interface InvalidRequest {
  error?: string;
  issues?: { path?: (string | number)[]; message?: string }[];
}

/** The status line's text: a word with its `{platform}`, `{status}` and `{detail}` filled in. */
const fill = (template: string, values: Record<string, string>): string =>
  template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);

const PLATFORM_NAMES: Record<string, string> = { discord: 'Discord', slack: 'Slack' };

/**
 * What the page says of an answer that was not a success. 400: the server's own words for each issue (the URL's
 * first: that is what a person most often gets wrong); 429 and 503 as push says them; anything else its status.
 */
async function refusalOf(response: Response, words: Words): Promise<string> {
  if (response.status === 429) return words.busy;
  if (response.status === 503) return words.unavailable;
  const body = (await response.json().catch(() => ({}))) as InvalidRequest;
  const issues = body.issues ?? [];
  const about = (field: string) => issues.filter((issue) => issue.path?.[0] === field);
  const detail = (list: typeof issues) => list.map((issue) => issue.message ?? '').join('; ');
  if (about('url').length > 0) return fill(words.badUrl, { detail: detail(about('url')) });
  return fill(words.refused, { status: String(response.status), detail: detail(issues) || (body.error ?? '') });
}

export function enhanceChatWebhookForm(document: Document): void {
  const form = document.querySelector<HTMLFormElement>('form[data-chat-webhook]');
  if (form === null) return;
  const words = JSON.parse(form.dataset['words'] ?? '{}') as Words;
  const locale = form.dataset['locale'] ?? 'en';
  const url = form.querySelector<HTMLInputElement>('input[name=url]')!;
  const buttons = [...form.querySelectorAll('button')];
  const status = form.querySelector<HTMLElement>('[data-chat-status]')!;
  const say = (text: string) => {
    status.textContent = text;
  };
  const checked = (name: string) =>
    [...form.querySelectorAll<HTMLInputElement>(`input[name=${name}]`)]
      .filter((box) => box.checked)
      .map((box) => box.value);

  /** Sends one write, the buttons waiting meanwhile; says `done`'s words for a success, else why not. */
  const send = async (
    method: 'POST' | 'DELETE',
    body: object,
    done: (response: Response) => Promise<string>,
  ): Promise<void> => {
    for (const button of buttons) button.disabled = true;
    try {
      const response = await fetch(CHAT_WEBHOOKS_PATH, {
        method,
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      say(response.ok ? await done(response) : await refusalOf(response, words));
    } catch (error) {
      // `fetch` rejects with a TypeError only when no answer came (offline, the connection lost).
      say(
        error instanceof TypeError
          ? words.offline
          : fill(words.failed, { detail: error instanceof Error ? error.message : String(error) }),
      );
    } finally {
      for (const button of buttons) button.disabled = false;
    }
  };

  form.addEventListener('submit', (submitted) => {
    submitted.preventDefault();
    const providers = checked('providers');
    const kinds = checked('kinds');
    if (providers.length === 0) return say(words.chooseProvider);
    if (kinds.length === 0) return say(words.chooseKind);
    say(words.connecting);
    void send('POST', { url: url.value.trim(), providers, kinds, locale }, async (response) => {
      const { platform = '' } = (await response.json()) as { platform?: string };
      return fill(response.status === 201 ? words.created : words.replaced, {
        platform: PLATFORM_NAMES[platform] ?? platform,
      });
    });
  });

  form.querySelector('[data-chat-stop]')!.addEventListener('click', () => {
    // The browser's own message for a missing or malformed URL, as for the submit.
    if (!url.reportValidity()) return;
    say(words.stopping);
    void send('DELETE', { url: url.value.trim() }, async () => words.stopped);
  });

  form.hidden = false;
  form.parentElement?.querySelector<HTMLElement>('[data-chat-fallback]')?.setAttribute('hidden', '');
}
