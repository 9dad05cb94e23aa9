import { describe, expect, it } from 'vitest';
import { fixtureFiles } from '../scripts/lib/built-files.ts';
import { edgeApp } from '../scripts/lib/edge-app.ts';
import { NOW, resetsWithGaps } from '../src/core/test-events.ts';

/**
 * The method policy of the paths the route table does not list (decisions.md, "The board on a phone": HTML pages
 * answer GET and HEAD; other methods get `405` with `Allow: GET, HEAD`), in-process: the worker's route function
 * hands GET and HEAD to Astro (`undefined`) and answers every other method itself. tests/page-methods.test.ts
 * checks the same over HTTP against the served build, where Astro really answers.
 */

const app = edgeApp(fixtureFiles(resetsWithGaps([7, 8, 6], 2), NOW));
const PAGES = ['/', '/zh', '/provider_a', '/zh/provider_c', '/tracker', '/about', '/zh/api', '/no-such-page'];
const OTHER_METHODS = ['POST', 'DELETE', 'PUT', 'PATCH', 'OPTIONS', 'PROPFIND'];

describe('pages answer GET and HEAD, and nothing else', () => {
  it.each(PAGES)('%s: GET and HEAD go to the pages', async (path) => {
    expect(await app.request(path)).toBeUndefined();
    expect(await app.request(path, { method: 'HEAD' })).toBeUndefined();
  });

  it.each(PAGES.flatMap((path) => OTHER_METHODS.map((method) => [method, path] as const)))(
    '%s %s is 405 with Allow: GET, HEAD and the error body',
    async (method, path) => {
      const response = (await app.request(path, { method, body: method === 'POST' ? 'a=1' : null }))!;
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD');
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(await response.json()).toEqual({ error: 'method_not_allowed' });
    },
  );

  it('an odd form of a page is still redirected first, whatever the method', async () => {
    const response = (await app.request('/zh/', { method: 'DELETE' }))!;
    expect(response.status).toBe(308);
    expect(response.headers.get('location')).toBe('/zh');
  });

  it('the table’s routes keep their own methods: the push writes and MCP are not pages', async () => {
    const write = (await app.request('/api/push/subscriptions', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    }))!;
    // Judged as a write (its body is not a subscription), not refused as a page's method.
    expect(write.status).toBe(400);
    const forget = (await app.request('/api/push/subscriptions', {
      method: 'DELETE',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    }))!;
    expect(forget.status).toBe(400);
    const mcp = (await app.request('/mcp', { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'x' }))!;
    expect(mcp.status).toBe(415);
    const readOnly = (await app.request('/api/status', { method: 'DELETE' }))!;
    expect(readOnly.status).toBe(405);
    expect(readOnly.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
});
