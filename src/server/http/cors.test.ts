import { describe, expect, it } from 'vitest';
import { withCommonHeaders } from './cors.ts';

const YEAR_IMMUTABLE = 'public, max-age=31536000, immutable';

describe('withCommonHeaders and the caching of errors', () => {
  it.each([
    [404, 'text/html', 'no-store'],
    [404, 'application/javascript', 'no-store'],
    [500, 'text/plain', 'no-store'],
    [200, 'text/css', YEAR_IMMUTABLE],
    [304, 'text/css', YEAR_IMMUTABLE],
  ])('a %i (%s) that came with the hashed assets’ year as immutable leaves with %s', (status, type, expected) => {
    const response = new Response(status === 304 ? null : 'x', {
      status,
      headers: { 'Content-Type': type, 'Cache-Control': YEAR_IMMUTABLE },
    });
    expect(withCommonHeaders(response).headers.get('cache-control')).toBe(expected);
  });

  it('keeps an error’s own caching that is not immutable', () => {
    const response = new Response('x', { status: 404, headers: { 'Cache-Control': 'public, max-age=60' } });
    expect(withCommonHeaders(response).headers.get('cache-control')).toBe('public, max-age=60');
  });
});
