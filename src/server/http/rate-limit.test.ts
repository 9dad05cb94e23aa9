import { describe, expect, it } from 'vitest';
import { secondsLeftInWindow, withinRateLimit } from './rate-limit.ts';

describe('secondsLeftInWindow: Retry-After of a 429 from a limiter of fixed windows', () => {
  it.each([
    ['2026-03-02T10:20:00.000Z', 60, 60],
    ['2026-03-02T10:20:15.200Z', 60, 45],
    ['2026-03-02T10:20:59.001Z', 60, 1],
    ['2026-03-02T10:20:59.999Z', 60, 1],
    ['2026-03-02T10:20:07.500Z', 10, 3],
  ])('at %s with a period of %i s: %i', (iso, period, expected) => {
    expect(secondsLeftInWindow(new Date(iso), period)).toBe(expected);
  });
});

describe('withinRateLimit: one budget per IPv4 address or IPv6 /64', () => {
  /** A limiter of `limit` calls per key, recording each key it was asked about. */
  const countingLimiter = (limit: number) => {
    const counts = new Map<string, number>();
    const keys: string[] = [];
    const limiter = {
      limit: ({ key }: { key: string }) => {
        keys.push(key);
        const count = (counts.get(key) ?? 0) + 1;
        if (count > limit) return Promise.resolve({ success: false });
        counts.set(key, count);
        return Promise.resolve({ success: true });
      },
    } as RateLimit;
    return { limiter, keys };
  };
  const from = (address?: string) =>
    new Request('https://board.example/api/push/subscriptions', {
      method: 'POST',
      headers: address === undefined ? {} : { 'CF-Connecting-IP': address },
    });

  it('counts every address of one /64 against one budget, in any spelling', async () => {
    const { limiter, keys } = countingLimiter(3);
    expect(await withinRateLimit(limiter, from('2001:db8:5:6::1'), 'Write')).toBe(true);
    expect(await withinRateLimit(limiter, from('2001:DB8:5:6:aaaa:bbbb:cccc:dddd'), 'Write')).toBe(true);
    expect(await withinRateLimit(limiter, from('2001:0db8:0005:0006::ffff'), 'Write')).toBe(true);
    expect(await withinRateLimit(limiter, from('2001:db8:5:6::2%eth0'), 'Write')).toBe(false);
    // The neighbouring /64 has a budget of its own.
    expect(await withinRateLimit(limiter, from('2001:db8:5:7::1'), 'Write')).toBe(true);
    expect(keys).toEqual([
      '2001:db8:5:6::/64',
      '2001:db8:5:6::/64',
      '2001:db8:5:6::/64',
      '2001:db8:5:6::/64',
      '2001:db8:5:7::/64',
    ]);
  });

  it('counts IPv4 per address, an IPv4-mapped address as its IPv4 address, a missing or bad header as unknown', async () => {
    const { limiter, keys } = countingLimiter(1);
    expect(await withinRateLimit(limiter, from('198.51.100.1'), 'Write')).toBe(true);
    expect(await withinRateLimit(limiter, from('::ffff:198.51.100.1'), 'Write')).toBe(false);
    expect(await withinRateLimit(limiter, from('198.51.100.2'), 'Write')).toBe(true);
    expect(await withinRateLimit(limiter, from(), 'Write')).toBe(true);
    expect(await withinRateLimit(limiter, from('not an address'), 'Write')).toBe(false);
    expect(keys).toEqual(['198.51.100.1', '198.51.100.1', '198.51.100.2', 'unknown', 'unknown']);
  });
});
