import { describe, expect, it } from 'vitest';
import { dataEtag, ifNoneMatchHits } from './etag.ts';

describe('dataEtag', () => {
  it('ignores the fields that move with the clock only, at any depth', async () => {
    const a = { updatedAt: '2026-01-01T00:00:00.000Z', providers: [{ daysSince: 1.5, status: 'waiting' }] };
    const b = { updatedAt: '2026-01-02T00:00:00.000Z', providers: [{ daysSince: 2.5, status: 'waiting' }] };
    expect(await dataEtag(a)).toBe(await dataEtag(b));
  });

  it('changes with the data', async () => {
    const before = await dataEtag({ providers: [{ status: 'waiting' }] });
    expect(await dataEtag({ providers: [{ status: 'overdue' }] })).not.toBe(before);
    expect(before).toMatch(/^W\/"[0-9a-f]{32}"$/);
  });
});

describe('ifNoneMatchHits', () => {
  const etag = 'W/"abc"';
  it.each<[string | null, boolean]>([
    [null, false],
    ['W/"abc"', true],
    ['"abc"', true],
    ['"x", W/"abc"', true],
    ['*', true],
    ['"abd"', false],
    ['', false],
  ])('If-None-Match: %s → %s', (header, hit) => {
    expect(ifNoneMatchHits(header, etag)).toBe(hit);
  });
});
