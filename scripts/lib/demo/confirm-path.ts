import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * One post's way from a watched feed to every channel (decisions.md, "Confirmed within a minute"), the pieces that
 * `npm run demo` (scripts/demo.ts) and the served test of the same path (tests/confirm-path.test.ts) share: the
 * build's watch configuration pointed at a feed on loopback, the review link found in the review message, the
 * review page's form read and sent back as a reviewer's browser sends it, and the subscriptions made through the
 * public write APIs. Node only; every receiver is on 127.0.0.1 (the loopback test switch, never `npm start`).
 */

/** The review channel's webhook path on the chat receiver: a Discord-style webhook. */
export const REVIEW_WEBHOOK_PATH = '/api/webhooks/4242/review-token';
/** A subscriber's Discord-style webhook on the same receiver. */
export const SUBSCRIBER_WEBHOOK_PATH = '/api/webhooks/5151/subscriber-token';

export interface FeedPost {
  link: string;
  title: string;
  publishedAt: string;
}

/**
 * A reset post of Provider A's watched account, published `minutesAgo` before `now`, whose id (the post's, as the
 * watcher reads it from the URL) is `id`. Its text names no other kind, so the classification rules make it a reset.
 */
export const resetPost = (id: string, now: Date, minutesAgo = 2): FeedPost => ({
  link: `https://posts.provider-a.example/@provider_a_eng/${id}`,
  title: 'We have reset weekly usage limits for everyone on every plan.',
  publishedAt: new Date(Math.floor(now.getTime() / 60_000) * 60_000 - minutesAgo * 60_000).toISOString(),
});

/**
 * Points the built watch configuration (`client/data/watch.json`) of a build folder at one feed on loopback, read
 * for Provider A's account `provider_a_eng`, and the review links at `repositoryUrl`. The build's stamp stays, so
 * the worker reads it as its own. Done before the folder is served (wrangler dev reloads on a changed file).
 */
export async function watchLoopbackFeed(buildDir: string, feedUrl: string, repositoryUrl: string): Promise<void> {
  const file = path.join(buildDir, 'client/data/watch.json');
  const config = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  config['sources'] = {
    provider_a: [{ account: 'provider_a_eng', feed: feedUrl }],
    provider_b: [],
    provider_c: [],
  };
  config['repositoryUrl'] = repositoryUrl;
  await writeFile(file, JSON.stringify(config));
}

/** Every string anywhere in a JSON value. */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(stringsOf);
  return [];
}

/**
 * The confirm link (`{base_url}/review/<draft id>?t=<token>`) a review message carries, Discord's or Slack's, or
 * undefined when it carries none (a deployment without REVIEW_SIGNING_KEY or GITHUB_TOKEN).
 */
export function confirmLinkIn(message: unknown): string | undefined {
  for (const text of stringsOf(message)) {
    const match = /https?:\/\/[^\s<>()|"]+\/review\/[A-Za-z0-9_-]+\?t=[A-Za-z0-9._%-]+/.exec(text);
    if (match !== null) return match[0];
  }
  return undefined;
}

/**
 * The same path and query at another origin: a link made for the build's `{base_url}` opened on the server that
 * serves a copy of that build at another port.
 */
export const atOrigin = (link: string, origin: string): string => {
  const url = new URL(link);
  return `${origin}${url.pathname}${url.search}`;
};

const decodeHtml = (text: string) =>
  text
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');

/**
 * The fields a browser sends when the reviewer presses "Confirm" on the review page `html` (its first form): the
 * hidden ones (the token, the language), the selected kind, the scope and effectiveAt as filled in, and
 * `action=confirm`. Throws when the page has no such form (a refusal, an outcome).
 */
export function confirmForm(html: string): URLSearchParams {
  const form = /<form method="post"[^>]*>([\s\S]*?)<\/form>/.exec(html)?.[1];
  if (form === undefined || !form.includes('value="confirm"')) throw new Error('the review page has no confirm form');
  const fields = new URLSearchParams();
  for (const input of form.matchAll(/<input\b([^>]*)>/g)) {
    const name = /\bname="([^"]*)"/.exec(input[1]!)?.[1];
    const value = /\bvalue="([^"]*)"/.exec(input[1]!)?.[1] ?? '';
    if (name !== undefined) fields.set(decodeHtml(name), decodeHtml(value));
  }
  for (const select of form.matchAll(/<select\b[^>]*\bname="([^"]*)"[^>]*>([\s\S]*?)<\/select>/g)) {
    const selected = /<option value="([^"]*)" selected>/.exec(select[2]!)?.[1];
    if (selected !== undefined) fields.set(decodeHtml(select[1]!), decodeHtml(selected));
  }
  fields.set('action', 'confirm');
  return fields;
}

/**
 * The reviewer's click: the form of the page at `pageUrl` (already fetched: `html`) posted to the form's own
 * address on the same origin, as a browser posts it (`Origin` the page's). Resolves with the answer (a 303 to the
 * page once decided), not followed.
 */
export async function postConfirm(pageUrl: string, html: string): Promise<Response> {
  const url = new URL(pageUrl);
  return fetch(`${url.origin}${url.pathname}`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Origin: url.origin,
      'Sec-Fetch-Site': 'same-origin',
    },
    body: confirmForm(html).toString(),
  });
}

/** Headers of a write through the public API, with a client address of the caller's when given (rate limits). */
const writeHeaders = (contentType: string, clientIp: string | undefined) => ({
  'Content-Type': contentType,
  ...(clientIp === undefined ? {} : { 'CF-Connecting-IP': clientIp }),
});

/** `POST /api/webhooks`: a Discord-style webhook subscribed to Provider A's resets, in English. */
export async function subscribeChatWebhook(baseUrl: string, webhookUrl: string, clientIp?: string): Promise<void> {
  const response = await fetch(`${baseUrl}/api/webhooks`, {
    method: 'POST',
    headers: writeHeaders('application/json', clientIp),
    body: JSON.stringify({ url: webhookUrl, providers: ['provider_a'], kinds: ['reset'], locale: 'en' }),
  });
  if (response.status !== 201)
    throw new Error(`POST /api/webhooks answered ${response.status}: ${await response.text()}`);
}

/** `POST /api/push/subscriptions`: a browser's subscription (endpoint and keys) to Provider A's resets, in English. */
export async function subscribePush(
  baseUrl: string,
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } },
  clientIp?: string,
): Promise<void> {
  const response = await fetch(`${baseUrl}/api/push/subscriptions`, {
    method: 'POST',
    headers: writeHeaders('application/json', clientIp),
    body: JSON.stringify({ subscription, providers: ['provider_a'], kinds: ['reset'], locale: 'en' }),
  });
  if (response.status !== 201)
    throw new Error(`POST /api/push/subscriptions answered ${response.status}: ${await response.text()}`);
}

/** Seconds since `start` (`performance.now()`), to the hundredth, for the tables the demo and the test print. */
export const secondsSince = (start: number, at = performance.now()): string => ((at - start) / 1000).toFixed(2);

/**
 * Waits until `check` resolves to something other than undefined, polling every `intervalMs`, and resolves with it
 * and the moment (`performance.now()`) it was seen; rejects after `timeoutMs` naming `what`. A hang guard, never a
 * timing check.
 */
export async function firstSeen<T>(
  check: () => Promise<T | undefined>,
  what: string,
  { timeoutMs = 60_000, intervalMs = 200 } = {},
): Promise<{ value: T; at: number }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return { value, at: performance.now() };
    if (Date.now() > deadline) throw new Error(`never: ${what} (waited ${timeoutMs / 1000} s)`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
