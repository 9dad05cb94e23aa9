import { cp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ownServer } from './support/served-site.ts';

/**
 * The data source made unavailable for real: a copy of the build is served in workerd, and its data asset
 * is removed, corrupted and restored while the server runs.
 */

const NEEDS_DATA = [
  '/api/status',
  '/api/status/provider_a',
  '/api/forecast',
  '/api/timeline?provider=provider_a',
  '/api/timeline.csv?limit=5',
  '/index.md',
  '/zh/index.md',
];

const server = ownServer({
  copyBuild: true,
  prepare: async (buildDir) => {
    await cp(path.join(buildDir, 'client/data/board.json'), path.join(buildDir, 'events.json.saved'));
    await rm(path.join(buildDir, 'client/data/board.json'));
  },
});
const copy = () => server().buildDir;
const dataFile = () => path.join(copy(), 'client/data/board.json');
const savedData = () => path.join(copy(), 'events.json.saved');

async function expectInternalError(requestPath: string) {
  const response = await fetch(`${server().baseUrl}${requestPath}`);
  expect(response.status, requestPath).toBe(500);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(response.headers.get('access-control-allow-origin')).toBe('*');
  expect(await response.json()).toEqual({ error: 'internal_error' });
}

describe('when the data source is unavailable', () => {
  it.each(NEEDS_DATA)('a missing data set makes %s a 500 internal_error, JSON, no stack trace', expectInternalError);

  it.each(['/', '/zh', '/provider_b'])(
    'a missing data set makes the page %s the friendly "unavailable" page (503)',
    async (requestPath) => {
      const response = await fetch(`${server().baseUrl}${requestPath}`);
      expect(response.status).toBe(503);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(response.headers.get('retry-after')).toBe('60');
      const html = await response.text();
      expect(html).toContain('temporarily unavailable');
      expect(html).not.toMatch(/DataSourceUnavailable|at .*\.mjs/);
    },
  );

  it('a corrupt data set does too', async () => {
    await writeFile(dataFile(), '{"builtAt": "yesterday", "events": [');
    for (const requestPath of NEEDS_DATA) await expectInternalError(requestPath);
    await writeFile(
      dataFile(),
      JSON.stringify({ builtAt: '2026-01-01T00:00:00.000Z', providers: { provider_a: { summary: {}, recent: [] } } }),
    );
    await expectInternalError('/api/status');
  });

  it('a missing prerendered timeline makes the default /api/timeline a 500 too', async () => {
    await rm(path.join(copy(), 'client/api/timeline'));
    await expectInternalError('/api/timeline');
  });

  it('a missing provider feed file makes its filtered feed a 500 too', async () => {
    await rm(path.join(copy(), 'client/data/feeds/provider_b.xml'));
    await expectInternalError('/feed.xml?provider=provider_b');
  });

  it('the first request after the data set is back succeeds', async () => {
    await cp(savedData(), dataFile());
    // Back means served again: the local runtime notices a new file within a second or two.
    // The poll's limit is a hang guard, generous for a busy machine.
    await expect
      .poll(async () => (await fetch(`${server().baseUrl}/data/board.json`)).status, { timeout: 60_000, interval: 250 })
      .toBe(200);
    for (const requestPath of [...NEEDS_DATA, '/', '/provider_b', '/feed.json?provider=provider_c'])
      expect((await fetch(`${server().baseUrl}${requestPath}`)).status, requestPath).toBe(200);
  }, 120_000);
});
