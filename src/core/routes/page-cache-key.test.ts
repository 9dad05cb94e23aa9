import { describe, expect, it } from 'vitest';
import { pageCacheKey } from './page-cache-key.ts';

const AT = Date.parse('2026-11-27T18:30:15.000Z');
const key = (url: string, build = 'build-1', at = AT) => pageCacheKey(new URL(url), build, at);
const MINUTE = Math.floor(AT / 60_000);

describe('pageCacheKey', () => {
  it('holds the build, the minute and the path: each language and provider its own', () => {
    expect(key('https://board.example/')).toBe(`https://board.example/.page-cache/build-1/${MINUTE}/`);
    expect(key('https://board.example/zh/provider_b')).toBe(
      `https://board.example/.page-cache/build-1/${MINUTE}/zh/provider_b`,
    );
    const keys = ['/', '/zh', '/provider_a', '/zh/provider_a', '/provider_b', '/tracker', '/zh/tracker'].map((path) =>
      key(`https://board.example${path}`),
    );
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('changes with the build: a new build never finds the old one’s page', () => {
    expect(key('https://board.example/', 'build-2')).not.toBe(key('https://board.example/', 'build-1'));
    expect(key('https://board.example/', 'a/b c')).toBe(`https://board.example/.page-cache/a%2Fb%20c/${MINUTE}/`);
  });

  it('changes at the minute: 18:30:59.999 is the same page, 18:31:00 another', () => {
    const start = Date.parse('2026-11-27T18:30:00.000Z');
    expect(key('https://board.example/', 'b', start + 59_999)).toBe(key('https://board.example/', 'b', start));
    expect(key('https://board.example/', 'b', start + 60_000)).not.toBe(key('https://board.example/', 'b', start));
  });

  it('ignores a made-up query on the board; keeps the tracker form’s fields, in a fixed order', () => {
    expect(key('https://board.example/provider_a?utm_source=x')).toBe(key('https://board.example/provider_a'));
    expect(key('https://board.example/tracker?tz=UTC&provider=provider_b&x=1')).toBe(
      `https://board.example/.page-cache/build-1/${MINUTE}/tracker?provider=provider_b&tz=UTC`,
    );
    expect(key('https://board.example/tracker?provider=provider_a&provider=provider_b')).toBeNull();
  });

  it('keeps no other page: the API, the prerendered pages, odd spellings', () => {
    for (const path of ['/api/status', '/about', '/zh/about', '/provider_d', '/Provider_A', '/zh/zh', '/index.md'])
      expect(key(`https://board.example${path}`), path).toBeNull();
  });
});
