import { describe, expect, it, vi } from 'vitest';
import { NOW } from '../../core/test-events.ts';
import type { Event } from '../../core/schemas.ts';
import {
  bodiesOf,
  BUILT_AT,
  CONFIRMED,
  CONFIRMED_AT,
  draftAndConfirm,
  HISTORY,
  journalApp,
} from '../../../tests/support/journal-fixture.ts';
import { REAL_D1, stateDatabaseForFile } from '../../../tests/support/state-d1.ts';
import { confirmDraft } from './decide.ts';
import { retireJournalNow } from './retire.ts';
import { withdrawLive } from './store.ts';

/**
 * The journal at the edge, in-process over a real D1: with a confirmed event in the journal, every output that is
 * derived from the summaries or the newest events answers byte for byte what a build holding the event answers at
 * the same moment (the reference is a second set of built files made from the events with the confirmed one,
 * by the build's own functions); withdrawn, the outputs are the build's again.
 */

const PATHS = [
  '/api/status',
  '/api/status/provider_a',
  '/api/status.txt',
  '/api/forecast',
  '/badge/provider_a.json',
  '/badge/provider_a.svg',
  '/index.md',
  '/zh/index.md',
  '/api/timeline?provider=provider_a&limit=20',
  '/api/timeline.csv?limit=5',
];

const state = stateDatabaseForFile();

const answers = (events: readonly Event[], builtAt: Date) => bodiesOf(journalApp(state.db, events, builtAt), PATHS);
const confirm = (event: Event) => draftAndConfirm(state.db, event);

describe('the journal at the edge', REAL_D1, () => {
  it('answers as a build that holds the confirmed event does, and as before once it is withdrawn', async () => {
    const before = await answers(HISTORY, BUILT_AT);
    expect(await confirm(CONFIRMED)).toBe('recorded');
    const withJournal = await answers(HISTORY, BUILT_AT);
    // The reference: the same history built with the event in it, by the build's own code, an hour later.
    await state.empty();
    const rebuilt = await answers([...HISTORY, CONFIRMED], CONFIRMED_AT);
    for (const path of PATHS) expect(withJournal[path], path).toBe(rebuilt[path]);
    expect(withJournal['/api/status/provider_a']).not.toBe(before['/api/status/provider_a']);
    expect(withJournal['/index.md']).toContain(CONFIRMED.sourceUrl);

    expect(await confirm(CONFIRMED)).toBe('recorded');
    expect(await withdrawLive(state.db, CONFIRMED.id, NOW)).toBe(true);
    const withdrawn = await answers(HISTORY, BUILT_AT);
    for (const path of PATHS) expect(withdrawn[path], path).toBe(before[path]);
  });

  it('takes a draft’s decision once: a second confirm of the same draft changes nothing', async () => {
    expect(await confirm(CONFIRMED)).toBe('recorded');
    const second = await confirmDraft({ DB: state.db }, CONFIRMED.id, { ...CONFIRMED, scope: 'plan:pro' }, NOW);
    expect(second).toBe('decided-before');
    const rows = await state.db.prepare('SELECT event FROM journal').all<{ event: string }>();
    expect(rows.results.map((row) => JSON.parse(row.event) as Event)).toEqual([CONFIRMED]);
  });

  it('leaves an event the build already holds to the build: never counted twice', async () => {
    expect(await confirm(CONFIRMED)).toBe('recorded');
    const heldAndJournal = await answers([...HISTORY, CONFIRMED], CONFIRMED_AT);
    await state.empty();
    const heldAlone = await answers([...HISTORY, CONFIRMED], CONFIRMED_AT);
    for (const path of PATHS) expect(heldAndJournal[path], path).toBe(heldAlone[path]);
  });

  it('leaves out a row that holds no event (written by hand), and serves the build alone', async () => {
    const before = await answers(HISTORY, BUILT_AT);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await state.db
      .prepare(
        `INSERT INTO journal (id, draft_id, provider, event, confirmed_at, state, state_at, git_next_at)
         VALUES ('by-hand', 'by-hand', 'provider_a', '{"id":"by-hand","kind":"reset"}', ?1, 'live', ?1, ?1)`,
      )
      .bind(CONFIRMED_AT.toISOString())
      .run();
    const after = await answers(HISTORY, BUILT_AT);
    for (const path of PATHS) expect(after[path], path).toBe(before[path]);
    expect(logged).toHaveBeenCalledWith('journal row by-hand does not hold an event; it is left out of every output');
    logged.mockRestore();
  });

  it('reads the journal’s rows again only when its version changed: one row a request otherwise', async () => {
    const statements: string[] = [];
    const counted = new Proxy(state.db, {
      get(target, name, receiver) {
        if (name !== 'prepare') return Reflect.get(target, name, receiver) as unknown;
        return (sql: string) => {
          statements.push(sql.includes('FROM journal_version') ? 'version' : 'journal');
          return target.prepare(sql);
        };
      },
    });
    await draftAndConfirm(state.db, CONFIRMED);
    const app = journalApp(counted, HISTORY, BUILT_AT);
    await bodiesOf(app, ['/api/status', '/api/status']);
    expect(statements).toEqual(['version', 'journal', 'version']);
    await withdrawLive(state.db, CONFIRMED.id, NOW);
    statements.length = 0;
    const [status] = Object.values(await bodiesOf(app, ['/api/status']));
    expect(statements).toEqual(['version', 'journal']);
    expect(status).not.toContain(CONFIRMED.id);
  });

  it('tells /api/events/<id> that the file landed on the next request: a commit changes the journal’s version', async () => {
    await draftAndConfirm(state.db, CONFIRMED);
    const app = journalApp(state.db, HISTORY, BUILT_AT);
    const provenance = async () =>
      (
        (await (await app.request(`/api/events/${CONFIRMED.id}`, undefined, NOW))!.json()) as {
          provenance: { review: { state: string; commit: { sha: string } | null } };
        }
      ).provenance.review;
    expect(await provenance()).toMatchObject({ state: 'awaiting-commit', commit: null });
    const sha = 'c'.repeat(40);
    await state.db
      .prepare("UPDATE journal SET git_state = 'committed', git_commit = ?2 WHERE id = ?1")
      .bind(CONFIRMED.id, sha)
      .run();
    expect(await provenance()).toMatchObject({ state: 'committed', commit: { sha } });
  });

  it('retires an entry at the minute’s cron once the serving build holds it, with or without the dispatch', async () => {
    await draftAndConfirm(state.db, CONFIRMED);
    await retireJournalNow(journalApp(state.db, HISTORY, BUILT_AT).env, NOW);
    expect(await state.db.prepare('SELECT state FROM journal').first('state')).toBe('live');
    await retireJournalNow(journalApp(state.db, [...HISTORY, CONFIRMED], CONFIRMED_AT).env, NOW);
    expect(await state.db.prepare('SELECT state FROM journal').first('state')).toBe('retired');
  });
});
