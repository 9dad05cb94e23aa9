import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { Event } from '../src/core/schemas.ts';
import { loadContract } from './support/openapi-contract.ts';
import { publishedFromContent } from './support/published.ts';
import { SERVED_RECORDING_LAG_MINUTES } from './support/served-events.ts';

/**
 * GET /api/events/<id> on the served build of the served event tree. The tree is made with a git history of its
 * own (tests/support/served-events.ts), so the build's one git pass finds it; the expected commit comes from git
 * itself, asked differently (the first commit along the first parent that added the file). A tree outside git
 * would give nulls instead.
 */

const baseUrl = inject('baseUrl');
let contract: Awaited<ReturnType<typeof loadContract>>;
let event: Event;

const git = (args: string[]) =>
  execFileSync('git', args, {
    cwd: inject('servedEventsDir'),
    encoding: 'utf8',
    env: { ...process.env, LC_ALL: 'C' },
  }).trim();

/** The commit that first added the file along the first parent, or null when git does not know it. */
function firstAddition(file: string): { sha: string; committedAt: string } | null {
  try {
    if (git(['rev-parse', '--is-shallow-repository']) !== 'false') return null;
    const lines = git([
      'log',
      '--first-parent',
      '--diff-merges=first-parent',
      '--no-renames',
      '--diff-filter=A',
      '--name-only',
      '--format=%H %cI',
      '--',
      file,
    ])
      .split('\n')
      .filter((line) => /^[0-9a-f]{40} \S+$/.test(line));
    const oldest = lines.at(-1);
    if (oldest === undefined || oldest === '') return null;
    const [sha, committedAt] = oldest.split(' ') as [string, string];
    return { sha, committedAt: new Date(committedAt).toISOString() };
  } catch {
    return null;
  }
}

beforeAll(async () => {
  contract = await loadContract(baseUrl);
  event = (await publishedFromContent()).events[0]!;
});

describe('GET /api/events/<id> on the served build', () => {
  it('answers a published event with its page and its provenance, as git tells it', async () => {
    const response = await fetch(`${baseUrl}/api/events/${event.id}`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      event: Event;
      pageUrl: string;
      provenance: { recordedAt: string | null; recordedCommit: { sha: string; url: string | null } | null };
    };
    contract.expectBodyMatches('/api/events/{id}', 200, body);
    expect(body.event).toEqual(event);
    expect(body.pageUrl).toBe(`${baseUrl}/${event.provider}#event-${event.id}`);

    const added = firstAddition(path.join(event.provider, `${event.id}.json`));
    expect(added, 'the served tree has a git history of its own').not.toBeNull();
    if (added === null) return;
    expect(body.provenance.recordedAt).toBe(added.committedAt);
    // Committed SERVED_RECORDING_LAG_MINUTES after the post (or at the tree's clock, whichever came first).
    const lag = (Date.parse(added.committedAt) - Date.parse(event.announcedAt)) / 60_000;
    expect(lag).toBeLessThanOrEqual(SERVED_RECORDING_LAG_MINUTES);
    expect(body.provenance.recordedCommit?.sha).toBe(added.sha);
    // The provider page shows it under the event, the commit by its short name.
    const page = await (await fetch(`${baseUrl}/${event.provider}`)).text();
    const item = page.slice(page.indexOf(`id="event-${event.id}"`));
    expect(item.slice(0, item.indexOf('</li>'))).toContain(added.sha.slice(0, 7));
  });

  it.each(['/api/events/never-announced', '/api/events/_not-an-id', `/api/events/${'x'.repeat(200)}`])(
    '%s is 404 invalid_event, as the contract says',
    async (requestPath) => {
      const response = await fetch(`${baseUrl}${requestPath}`);
      expect(response.status).toBe(404);
      const body = await response.json();
      expect(body).toEqual({ error: 'invalid_event' });
      contract.expectBodyMatches('/api/events/{id}', 404, body);
    },
  );
});
