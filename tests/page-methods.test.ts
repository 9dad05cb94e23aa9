import { describe, expect, inject, it } from 'vitest';
import { uniqueClientIp } from './support/client-ip.ts';

/**
 * The pages' methods over HTTP, in workerd (decisions.md, "The board on a phone": HTML pages answer GET and
 * HEAD; other methods get `405` with `Allow: GET, HEAD`): prerendered pages, pages rendered at the edge and the
 * 404 page, where Astro used to answer a DELETE with the whole page and a POST with its own 403 without `Allow`.
 * The table's write routes keep their methods. functions/page-methods.test.ts checks the router in-process.
 */

const baseUrl = inject('baseUrl');
const request = (path: string, init?: RequestInit) => fetch(`${baseUrl}${path}`, { redirect: 'manual', ...init });

/** Prerendered (`/about`, `/zh/api`), at the edge (the board, a provider, the tracker) and the 404 page. */
const PAGES = ['/', '/zh', '/provider_a', '/zh/provider_c', '/tracker', '/about', '/zh/api', '/no-such-page'];

describe('GET and HEAD', () => {
  it.each(PAGES)('%s: HEAD answers as GET does, without a body', async (path) => {
    const get = await request(path);
    const head = await request(path, { method: 'HEAD' });
    const expected = path === '/no-such-page' ? 404 : 200;
    expect(get.status).toBe(expected);
    expect(head.status).toBe(expected);
    expect(get.headers.get('content-type')).toMatch(/^text\/html;\s*charset=utf-8$/i);
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    expect(head.headers.get('content-security-policy')).toBe(get.headers.get('content-security-policy'));
    expect(await get.text()).toMatch(/^<!DOCTYPE html>/i);
    expect(await head.text()).toBe('');
  });
});

describe('any other method', () => {
  it.each(PAGES.flatMap((path) => ['POST', 'DELETE', 'PUT', 'PATCH', 'OPTIONS'].map((method) => [method, path])))(
    '%s %s is 405 with Allow: GET, HEAD, the error body and the page security headers',
    async (method, path) => {
      const response = await request(path!, { method });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD');
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await response.json()).toEqual({ error: 'method_not_allowed' });
    },
  );

  it('a form posted from another site gets the 405, not the page or Astro’s 403', async () => {
    const response = await request('/provider_a', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: 'https://elsewhere.example' },
      body: 'a=1',
    });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
  });

  it('a body sent with the refused method is read, so the next request on the connection is answered', async () => {
    for (const path of ['/provider_a', '/about', '/no-such-page']) {
      const refused = await request(path, { method: 'PUT', body: 'x'.repeat(64_000) });
      expect(refused.status).toBe(405);
      expect((await request(path)).status).toBe(path === '/no-such-page' ? 404 : 200);
    }
  });
});

describe('the write routes are not pages', () => {
  it('POST and DELETE on the push subscriptions and POST on MCP are judged as writes', async () => {
    const headers = { 'Content-Type': 'application/json', 'CF-Connecting-IP': uniqueClientIp() };
    const subscribe = await request('/api/push/subscriptions', { method: 'POST', headers, body: '{}' });
    expect(subscribe.status).toBe(400);
    expect(await subscribe.json()).toMatchObject({ error: 'invalid_request' });
    const forget = await request('/api/push/subscriptions', { method: 'DELETE', headers, body: '{}' });
    expect(forget.status).toBe(400);
    const mcp = await request('/mcp', {
      method: 'POST',
      headers: { ...headers, Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(mcp.status).toBe(200);
    // One server-sent event carrying the answer (the client accepts a stream).
    const data = /^data: (.+)$/m.exec(await mcp.text())?.[1];
    expect(JSON.parse(data ?? 'null')).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
  });
});
