import { expect } from 'vitest';
import { fixtureFiles } from '../../scripts/lib/built-files.ts';
import { edgeApp, type EdgeApp } from '../../scripts/lib/edge-app.ts';
import type { Event } from '../../src/core/schemas.ts';
import { daysBefore, makeEvent, NOW } from '../../src/core/test-events.ts';
import { forgetLoadedData } from '../../src/server/data-source.ts';
import { confirmDraft } from '../../src/server/journal/decide.ts';

/**
 * The journal's in-process fixture: a small history built six hours before `NOW`, an event posted after the build
 * and confirmed an hour before `NOW`, and the edge over the built files of any history with a real D1 (whose
 * journal the test fills through the reviewer's own `confirmDraft`).
 */

export const ORIGIN = 'http://localhost:4321';
export const BUILT_AT = new Date(NOW.getTime() - 6 * 3_600_000);
export const CONFIRMED_AT = new Date(NOW.getTime() - 3_600_000);
export const HISTORY: Event[] = [
  ...Array.from({ length: 8 }, (_, index) =>
    makeEvent({ id: `a-${index}`, provider: 'provider_a', announcedAt: daysBefore(60 - index * 7) }),
  ),
  makeEvent({ id: 'b-tease', provider: 'provider_b', kind: 'tease', announcedAt: daysBefore(3) }),
  ...Array.from({ length: 4 }, (_, index) =>
    makeEvent({ id: `c-${index}`, provider: 'provider_c', announcedAt: daysBefore(50 - index * 12) }),
  ),
];
export const CONFIRMED = makeEvent({
  id: 'confirmed-reset',
  provider: 'provider_a',
  announcedAt: new Date(NOW.getTime() - 2 * 3_600_000).toISOString(),
  summary: 'Limits reset, confirmed through review.',
});

/** The edge over the built files of `events` at `builtAt`, with the state database's journal. */
export function journalApp(db: D1Database, events: readonly Event[], builtAt: Date): EdgeApp {
  forgetLoadedData();
  return edgeApp(fixtureFiles(events, builtAt, ORIGIN), { origin: ORIGIN, push: { DB: db } });
}

/** The bodies of `paths` at `NOW` from `app`, each a 200. */
export async function bodiesOf(app: EdgeApp, paths: readonly string[]): Promise<Record<string, string>> {
  const bodies: Record<string, string> = {};
  for (const path of paths) {
    const response = (await app.request(path, undefined, NOW))!;
    expect(response.status, path).toBe(200);
    bodies[path] = await response.text();
  }
  return bodies;
}

/** The watcher's draft of `event`, then the reviewer's confirm of it at `CONFIRMED_AT`. */
export async function draftAndConfirm(db: D1Database, event: Event): Promise<'recorded' | 'decided-before'> {
  await db
    .prepare(
      `INSERT INTO watch_drafts (id, provider, source_url, file, found_at, review_next_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?5) ON CONFLICT DO NOTHING`,
    )
    .bind(
      event.id,
      event.provider,
      event.sourceUrl,
      JSON.stringify({ ...event, verified: false }),
      BUILT_AT.toISOString(),
    )
    .run();
  return confirmDraft({ DB: db }, event.id, event, CONFIRMED_AT);
}
