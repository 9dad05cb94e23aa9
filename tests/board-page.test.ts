import { describe, expect, inject, it } from 'vitest';
import { deriveBoard } from '../src/core/board.ts';
import { HistoryIndexSchema, PublishedEventsSchema } from '../src/core/dataset.ts';
import { compareNewestFirst } from '../src/core/ordering.ts';
import { STATUS_LABELS } from '../src/core/i18n/labels.ts';
import { checkEventTree } from '../src/node/check-event-tree.ts';

const baseUrl = inject('baseUrl');

describe('the production build served in workerd', async () => {
  it.each(['provider_a', 'provider_b', 'provider_c'])(
    'serves the %s badge as SVG and as a shields endpoint, with the status word',
    async (provider) => {
      const expected = deriveBoard(published, new Date()).providers.find((row) => row.provider === provider)!;
      const svg = await fetch(`${baseUrl}/badge/${provider}.svg`);
      expect(svg.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
      expect(svg.headers.get('cache-control')).toBe('public, max-age=60, s-maxage=60, stale-while-revalidate=300');
      expect(await svg.text()).toContain(`>${STATUS_LABELS.en[expected.status].toLowerCase()}</text>`);
      const json = await (await fetch(`${baseUrl}/badge/${provider}.json`)).json();
      expect(json).toMatchObject({ schemaVersion: 1, message: STATUS_LABELS.en[expected.status].toLowerCase() });
      expect((await fetch(`${baseUrl}/badge/${provider}.png`)).status).toBe(404);
    },
  );

  const { events } = await checkEventTree(inject('servedEventsDir'));
  const published = events.filter((event) => event.verified).sort(compareNewestFirst);

  it('publishes exactly the verified events as the whole history, one file per provider and year', async () => {
    const index = HistoryIndexSchema.parse(await (await fetch(`${baseUrl}/data/events/index.json`)).json());
    const fromFiles = [];
    for (const file of index.files) {
      const response = await fetch(`${baseUrl}${file.path}`);
      expect(response.status).toBe(200);
      const { events } = PublishedEventsSchema.parse(await response.json());
      expect(events).toHaveLength(file.events);
      expect(
        events.every(
          (event) => event.provider === file.provider && new Date(event.announcedAt).getUTCFullYear() === file.year,
        ),
      ).toBe(true);
      fromFiles.push(...events);
    }
    expect(fromFiles.sort(compareNewestFirst)).toEqual(published);
    expect(fromFiles.some((event) => !event.verified)).toBe(false);
  });

  it('shows a populated board on the home page, computed within the minute of the request', async () => {
    // Rendered once a minute at most (the per-minute page cache, src/server/page-cache.ts): a page computed in an
    // earlier minute would be stale. The page states its time to the second: the upper bound is widened to one.
    const before = Math.floor(Date.now() / 60_000) * 60_000;
    const response = await fetch(`${baseUrl}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    const after = Math.ceil(Date.now() / 1000) * 1000;
    const board = deriveBoard(published, new Date());
    for (const { provider, status } of board.providers) {
      expect(html).toContain(`data-provider="${provider}"`);
      expect(html).toMatch(new RegExp(`data-provider="${provider}".*?data-status="${status}"`, 's'));
    }
    const computedAt = Date.parse(/id="computed">[^<]*<time datetime="([^"]+)"/.exec(html)?.[1] ?? '');
    expect(computedAt).toBeGreaterThanOrEqual(before);
    expect(computedAt).toBeLessThanOrEqual(after);
    expect(response.headers.get('cache-control')).toBe('public, s-maxage=60, stale-while-revalidate=300');
  });
});
