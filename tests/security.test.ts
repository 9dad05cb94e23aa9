import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { BUILD_ENVIRONMENT_SENTINEL } from './support/served-build.ts';
import { describe, expect, inject, it } from 'vitest';

/** Security headers on every page, nosniff on the API, an embeddable badge, and no cookies anywhere. */

const baseUrl = inject('baseUrl');
const get = (path: string, init?: RequestInit) => fetch(`${baseUrl}${path}`, { redirect: 'manual', ...init });

const PAGES = ['/', '/zh', '/provider_a', '/zh/provider_c', '/tracker', '/api', '/about', '/zh/about', '/no-such-page'];
const API = [
  '/api/status',
  '/api/timeline',
  '/api/timeline?provider=provider_b',
  '/api/timeline.csv',
  '/feed.xml',
  '/feed.json?provider=provider_a',
  '/index.md',
  '/openapi.json',
  '/llms.txt',
  '/calendar.ics',
  '/data/board.json',
  '/api/ics?provider=provider_a&resetAt=2026-11-21T18:30:00Z',
];

describe('HTML pages', () => {
  it.each(PAGES)('%s carries the page security headers', async (path) => {
    const response = await get(path);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = response.headers.get('content-security-policy') ?? '';
    const scriptSrc = /script-src ([^;]+)/.exec(csp)?.[1] ?? '';
    expect(scriptSrc).toBe("'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'none'");
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('machine-readable responses', () => {
  it.each(API)('%s is nosniff and sets no cookie', async (path) => {
    const response = await get(path);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('MCP sets no cookie either', async () => {
    const response = await get('/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'cf-connecting-ip': '2001:db8:5ec::1' },
      body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    });
    expect(response.headers.get('set-cookie')).toBeNull();
  });
});

describe('the badge', () => {
  it('may be embedded anywhere, and is inert on its own', async () => {
    const response = await get('/badge/provider_a.svg');
    expect(response.headers.get('x-frame-options')).toBeNull();
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('pages set no cookies', () => {
  it.each(PAGES)('%s', async (path) => {
    expect((await get(path)).headers.get('set-cookie')).toBeNull();
  });
});

describe('the build environment', () => {
  it('never reaches the worker bundle or the built files (Vite inlines only the exact import.meta.env names)', async () => {
    const files = await readdir(inject('builtDir'), { recursive: true, withFileTypes: true });
    for (const entry of files.filter((candidate) => candidate.isFile() && /\.(m?js|json|html)$/.test(candidate.name))) {
      const text = await readFile(path.join(entry.parentPath, entry.name), 'utf8');
      expect(text.includes(BUILD_ENVIRONMENT_SENTINEL), entry.name).toBe(false);
      expect(text.includes(process.env['PATH']!), entry.name).toBe(false);
    }
  });
});

describe('secrets of the local server', () => {
  it('never appear on a command line, where every local user can read them (ps, /proc)', async () => {
    const secrets = JSON.parse(await readFile(path.join(inject('stateDir'), 'vapid-keys.local.json'), 'utf8')) as {
      VAPID_PUBLIC_KEY: string;
      VAPID_PRIVATE_KEY: string;
    };
    // The pair is the one the server holds: its public half is what /api/push/key answers.
    const served = (await (await get('/api/push/key')).json()) as { publicKey: string };
    expect(served.publicKey).toBe(secrets.VAPID_PUBLIC_KEY);
    const commandLines: string[] = [];
    for (const entry of await readdir('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const line = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
      if (line.includes('wrangler') || line.includes('workerd')) commandLines.push(line);
    }
    expect(commandLines.length, 'the served build runs in wrangler dev and workerd').toBeGreaterThan(0);
    for (const line of commandLines) expect(line).not.toContain(secrets.VAPID_PRIVATE_KEY);
  });
});
