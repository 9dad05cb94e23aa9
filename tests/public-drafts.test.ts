import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import type { Event } from '../src/core/schemas.ts';
import { draftKeysOf, WATCH_CONFIG_PATH } from '../src/core/watch/watch-config.ts';

/**
 * No public path lists drafts (decisions.md, "Confirmed within a minute"): every file of the served build's client
 * output (what the worker serves on public paths: data files, feeds, records, pages, scripts) is read byte by byte
 * for `"verified":false` and for the id, post URL and summary of each draft of the served event tree (its three
 * unverified events). The watcher's own file carries only their keys (SHA-256), and the worker still knows them.
 */

const builtDir = inject('builtDir');
const eventsDir = inject('servedEventsDir');
const baseUrl = inject('baseUrl');

async function servedEvents(): Promise<Event[]> {
  const files = await readdir(eventsDir, { recursive: true, withFileTypes: true });
  return Promise.all(
    files
      .filter((entry) => entry.isFile() && entry.name.endsWith('.json'))
      .map(async (entry) => JSON.parse(await readFile(path.join(entry.parentPath, entry.name), 'utf8')) as Event),
  );
}

async function clientFiles(): Promise<{ name: string; bytes: Buffer }[]> {
  const client = path.join(builtDir, 'client');
  const entries = await readdir(client, { recursive: true, withFileTypes: true });
  return Promise.all(
    entries
      .filter((entry) => entry.isFile())
      .map(async (entry) => {
        const file = path.join(entry.parentPath, entry.name);
        return { name: path.relative(client, file), bytes: await readFile(file) };
      }),
  );
}

describe('drafts on public paths', () => {
  it('no built file holds "verified": false, or a draft’s id, post URL or summary', async () => {
    const events = await servedEvents();
    const drafts = events.filter((event) => !event.verified);
    expect(drafts.length).toBeGreaterThanOrEqual(3);
    const needles = [
      '"verified":false',
      '"verified": false',
      ...drafts.flatMap((draft) => [draft.id, draft.sourceUrl, draft.summary, JSON.stringify(draft.summary)]),
    ];
    const files = await clientFiles();
    const found = files.flatMap(({ name, bytes }) =>
      needles.filter((needle) => bytes.includes(needle)).map((needle) => `${name}: ${needle}`),
    );
    expect(found).toEqual([]);
    // The search finds what is there: each published event's id is in some built file.
    const published = events.filter((event) => event.verified);
    expect(published.filter((event) => !files.some(({ bytes }) => bytes.includes(event.id)))).toEqual([]);
  });

  it(`${WATCH_CONFIG_PATH} carries the drafts’ keys, SHA-256 of each id and post URL, for the cron`, async () => {
    const drafts = (await servedEvents()).filter((event) => !event.verified);
    const response = await fetch(`${baseUrl}${WATCH_CONFIG_PATH}`);
    expect(response.status).toBe(200);
    const config = (await response.json()) as Record<string, unknown>;
    expect(config['drafts']).toBeUndefined();
    expect(config['draftKeys']).toEqual(await draftKeysOf(drafts));
  });
});
