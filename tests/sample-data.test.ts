import { describe, expect, it } from 'vitest';
import { EVENT_KINDS, PROVIDERS } from '../src/core/enums.ts';
import { MS_PER_DAY } from '../src/core/ordering.ts';
import { checkEventTree } from '../src/node/check-event-tree.ts';

describe('the shipped sample data set (content/events)', async () => {
  const { events, problems } = await checkEventTree('content/events');
  const published = events.filter((event) => event.verified);

  it('is valid', () => {
    expect(problems).toEqual([]);
  });

  it('fills a board: at least 60 events over at least 12 months, every provider and kind', () => {
    expect(events.length).toBeGreaterThanOrEqual(60);
    const times = published.map((event) => Date.parse(event.announcedAt));
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThanOrEqual(365 * MS_PER_DAY);
    expect(new Set(published.map((event) => event.provider))).toEqual(new Set(PROVIDERS));
    expect(new Set(published.map((event) => event.kind))).toEqual(new Set(EVENT_KINDS));
  });

  it('has global and plan-scoped events, an effectiveAt, and a few drafts', () => {
    expect(published.some((event) => event.scope === 'global')).toBe(true);
    expect(published.some((event) => event.scope.startsWith('plan:'))).toBe(true);
    expect(published.some((event) => event.effectiveAt !== null)).toBe(true);
    expect(events.filter((event) => !event.verified).length).toBeGreaterThanOrEqual(2);
  });

  it('is fictional: every source is a host under .example', () => {
    for (const event of events) expect(new URL(event.sourceUrl).hostname).toMatch(/\.example$/);
  });
});
