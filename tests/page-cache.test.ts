import { describe, expect, it } from 'vitest';
import { PROVIDERS } from '../src/core/vocabulary.ts';
import { ownServer } from './support/served-site.ts';
import { scaled } from '../scripts/lib/load-scaled.ts';

/**
 * The per-minute page cache (src/server/page-cache.ts), in workerd's own Cache API: each language, provider and
 * tracker query has its own entry; a page is never older than its minute; and a miss under load renders once.
 * `X-Page-Cache` says hit, miss or shared. That a new build never answers with the old one's page rests on the
 * key, which holds the build id (src/core/routes/page-cache-key.test.ts): the local runtime's cache does not
 * outlive its server, so two builds cannot share one here.
 */

const server = ownServer();
const MINUTE_MS = 60_000;

const get = async (baseUrl: string, path: string, init?: RequestInit) => {
  const response = await fetch(`${baseUrl}${path}`, init);
  return { state: response.headers.get('X-Page-Cache'), status: response.status, html: await response.text() };
};
/** When the page's rows were computed (the board's `data-computed-at`, on the board and the provider pages). */
const computedAt = (html: string) => /data-computed-at="([^"]+)"/.exec(html)?.[1];
const lang = (html: string) => /<html lang="([^"]+)"/.exec(html)?.[1];
const title = (html: string) => /<h1[^>]*>([^<]+)<\/h1>/.exec(html)?.[1];

/** Waits, in real time, until a minute starts that leaves `needMs` of it for what follows. */
async function startOfRoomyMinute(needMs = 20_000): Promise<void> {
  const left = MINUTE_MS - (Date.now() % MINUTE_MS);
  if (left < needMs) await new Promise((resolve) => setTimeout(resolve, left + 200));
}

describe('the page cache', () => {
  it('keeps each language and provider apart, and answers the second request from the cache', async () => {
    const { baseUrl } = server();
    await startOfRoomyMinute();
    const paths = [
      '/',
      '/zh',
      ...PROVIDERS.flatMap((provider) => [`/${provider}`, `/zh/${provider}`]),
      '/tracker',
      '/zh/tracker',
    ];
    const first = await Promise.all(paths.map((path) => get(baseUrl, path)));
    const second = await Promise.all(paths.map((path) => get(baseUrl, path)));
    for (const [index, path] of paths.entries()) {
      expect(first[index]!.status, path).toBe(200);
      expect(first[index]!.state, path).toBe('miss');
      expect(second[index]!.state, path).toBe('hit');
      expect(second[index]!.html, path).toBe(first[index]!.html);
      expect(lang(second[index]!.html), path).toBe(path.startsWith('/zh') ? 'zh-Hans' : 'en');
    }
    // Each provider page is its own: its heading names its provider, in its language.
    const LABELS = { en: 'Provider', zh: '供应商' };
    for (const [index, path] of paths.entries()) {
      const provider = PROVIDERS.find((candidate) => path.endsWith(candidate));
      if (provider === undefined) continue;
      const letter = provider.slice(-1).toUpperCase();
      expect(title(second[index]!.html), path).toBe(`${LABELS[path.startsWith('/zh') ? 'zh' : 'en']} ${letter}`);
    }
  });

  it('ignores a made-up query on the board, and keeps each tracker query apart', async () => {
    const { baseUrl } = server();
    await startOfRoomyMinute();
    await get(baseUrl, '/provider_b');
    expect((await get(baseUrl, '/provider_b?utm_source=x')).state).toBe('hit');
    const plan = '/tracker?provider=provider_b&tz=UTC&reset=2026-12-01T10%3A00';
    const other = '/tracker?provider=provider_c&tz=UTC&reset=2026-12-01T10%3A00';
    expect((await get(baseUrl, plan)).state).toBe('miss');
    expect((await get(baseUrl, plan.replace('provider=provider_b&tz=UTC', 'tz=UTC&provider=provider_b'))).state).toBe(
      'hit',
    );
    const otherPage = await get(baseUrl, other);
    expect(otherPage.state).toBe('miss');
    expect(otherPage.html).toContain('provider_c');
  });

  it(
    'never answers with a page older than its minute',
    async () => {
      const { baseUrl } = server();
      await startOfRoomyMinute();
      const before = await get(baseUrl, '/provider_c');
      const at = Date.now();
      // Into the next minute, by the clock workerd reads too.
      await new Promise((resolve) => setTimeout(resolve, MINUTE_MS - (at % MINUTE_MS) + 500));
      const after = await get(baseUrl, '/provider_c');
      expect(after.state).toBe('miss');
      expect(Date.parse(computedAt(after.html)!)).toBeGreaterThan(Date.parse(computedAt(before.html)!));
      expect(Math.floor(Date.parse(computedAt(after.html)!) / MINUTE_MS)).toBeGreaterThan(
        Math.floor(Date.parse(computedAt(before.html)!) / MINUTE_MS),
      );
    },
    scaled(120_000),
  );

  it('renders a miss under load once: the requests that came together share it', async () => {
    const { baseUrl } = server();
    await startOfRoomyMinute();
    const answers = await Promise.all(Array.from({ length: 24 }, () => get(baseUrl, '/zh/provider_a')));
    const states = answers.map((answer) => answer.state);
    expect(states.filter((state) => state === 'miss')).toHaveLength(1);
    expect(states.every((state) => state === 'miss' || state === 'shared' || state === 'hit')).toBe(true);
    expect(new Set(answers.map((answer) => answer.html)).size).toBe(1);
  });

  it('answers HEAD from the same entry, without a body', async () => {
    const { baseUrl } = server();
    await startOfRoomyMinute();
    await get(baseUrl, '/provider_a');
    const head = await fetch(`${baseUrl}/provider_a`, { method: 'HEAD' });
    expect(head.headers.get('X-Page-Cache')).toBe('hit');
    expect(await head.text()).toBe('');
  });
});
