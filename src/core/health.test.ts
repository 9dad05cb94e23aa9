import { describe, expect, it } from 'vitest';
import {
  alertDecision,
  alertMessage,
  alertText,
  channelCapsPart,
  cronPart,
  databasePart,
  deliveryPart,
  healthHttpStatus,
  healthStatus,
  journalPart,
  nextCronRecord,
  reviewPart,
  watcherPart,
} from './health.ts';
import { sourcesStateOf } from './sources.ts';

const NOW = new Date('2026-06-15T12:00:00.000Z');
const ago = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000).toISOString();
const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);

describe('healthStatus', () => {
  it.each([
    [['ok', 'ok', 'off'], 'ok', 200],
    [['ok', 'degraded', 'off'], 'degraded', 200],
    [['degraded', 'failing', 'ok'], 'failing', 503],
    [['off', 'off'], 'ok', 200],
  ] as const)('%j is %s (HTTP %i)', (states, status, http) => {
    const parts = Object.fromEntries(states.map((state, index) => [`part${index}`, { state }]));
    expect(healthStatus(parts)).toBe(status);
    expect(healthHttpStatus(healthStatus(parts))).toBe(http);
  });
});

describe('the parts', () => {
  it('database: off without a binding, failing unreachable or short of migrations, ok with them all or more', () => {
    const facts = { bound: true, reachable: true, applied: 2, expected: 2, problem: null };
    expect(databasePart({ ...facts, bound: false }).state).toBe('off');
    expect(databasePart({ ...facts, reachable: false, applied: null }).state).toBe('failing');
    expect(databasePart({ ...facts, applied: 0 })).toEqual({
      state: 'failing',
      reason: "0 of the build's 2 migrations are applied",
      reachable: true,
      migrationsApplied: 0,
      migrationsExpected: 2,
    });
    expect(databasePart(facts).state).toBe('ok');
    expect(databasePart({ ...facts, applied: 3 }).state).toBe('ok');
  });

  it('cron: degraded before its first run, after one failure or 6 idle minutes; failing after 3 or 16 minutes without success', () => {
    const ok = { lastRun: ago(1), lastSuccess: ago(1), failuresInRow: 0, failed: [] };
    expect(cronPart(null, NOW, true).state).toBe('degraded');
    expect(cronPart(null, NOW, false).state).toBe('off');
    expect(cronPart(ok, NOW, true)).toEqual({
      state: 'ok',
      reason: null,
      lastRun: ago(1),
      lastSuccess: ago(1),
      failuresInRow: 0,
    });
    expect(cronPart({ ...ok, lastRun: ago(6), lastSuccess: ago(6) }, NOW, true).state).toBe('degraded');
    expect(cronPart({ ...ok, failuresInRow: 1, failed: ['watch'] }, NOW, true).reason).toBe(
      'the last scheduled run failed (last failed: watch)',
    );
    expect(cronPart({ ...ok, failuresInRow: 3, failed: ['record'] }, NOW, true).state).toBe('failing');
    expect(cronPart({ ...ok, lastSuccess: ago(16), failuresInRow: 1, failed: ['record'] }, NOW, true)).toMatchObject({
      state: 'failing',
      reason: 'no scheduled run has succeeded for 16 min (last failed: record)',
    });
    expect(cronPart({ ...ok, lastSuccess: null, failuresInRow: 1 }, NOW, true).state).toBe('failing');
  });

  it('cron record: a success resets the count, a failure keeps the last success', () => {
    const first = nextCronRecord(null, at(-2), []);
    expect(first).toEqual({ lastRun: ago(2), lastSuccess: ago(2), failuresInRow: 0, failed: [] });
    const failed = nextCronRecord(nextCronRecord(first, at(-1), ['watch']), NOW, ['dispatch', 'record']);
    expect(failed).toEqual({ lastRun: ago(0), lastSuccess: ago(2), failuresInRow: 2, failed: ['dispatch', 'record'] });
    expect(nextCronRecord(failed, at(1), []).failuresInRow).toBe(0);
  });

  it('watcher: off when nothing is watched, failing with /api/sources, degraded when delayed or unknown', () => {
    const facts = { watching: true, sources: 'current', watched: 2, failing: 0, unknownBecause: null } as const;
    expect(watcherPart({ ...facts, watching: false, sources: 'unknown' }).state).toBe('off');
    expect(watcherPart(facts).state).toBe('ok');
    expect(watcherPart({ ...facts, failing: 1 }).state).toBe('degraded');
    expect(watcherPart({ ...facts, sources: 'failing', failing: 1 }).state).toBe('failing');
    expect(watcherPart({ ...facts, sources: 'delayed' }).state).toBe('degraded');
    expect(watcherPart({ ...facts, sources: 'unknown', unknownBecause: 'the database is gone' })).toMatchObject({
      state: 'degraded',
      reason: 'the database is gone',
    });
  });

  it('sources: failing once a source has failed for over 15 minutes, by its first failure', () => {
    const source = {
      provider: 'provider_a',
      name: 'a',
      url: 'https://feeds.example/a.rss',
      ok: false,
      error: 'answered HTTP 500',
      itemsSeen: 0,
    } as const;
    const report = (failingSince: string) => ({
      checkedAt: ago(1),
      sources: [{ ...source, checkedAt: ago(1), failingSince }],
    });
    expect(sourcesStateOf(report(ago(15)), NOW)).toBe('current');
    expect(sourcesStateOf(report(ago(16)), NOW)).toBe('failing');
  });

  it('delivery: late after 5 minutes due, stuck after 30, degraded by an expiry in the last day', () => {
    const facts = { due: 1, retrying: 0, expiredLast24h: 0, oldestDueAt: ago(1) };
    expect(deliveryPart(null, NOW).state).toBe('off');
    expect(deliveryPart(facts, NOW)).toEqual({
      state: 'ok',
      reason: null,
      due: 1,
      retrying: 0,
      expiredLast24h: 0,
      oldestDueSeconds: 60,
    });
    expect(deliveryPart({ ...facts, oldestDueAt: ago(6) }, NOW).state).toBe('degraded');
    expect(deliveryPart({ ...facts, oldestDueAt: ago(31) }, NOW).state).toBe('failing');
    expect(deliveryPart({ ...facts, due: 0, oldestDueAt: null, expiredLast24h: 2 }, NOW).state).toBe('degraded');
  });

  it('review messages: degraded while one waits, failing once one has waited over 15 minutes', () => {
    expect(reviewPart({ notSent: 0, oldestFoundAt: null }, NOW).state).toBe('ok');
    // No review channel configured: drafts wait for the pull request, which is no fault.
    expect(reviewPart({ notSent: 3, oldestFoundAt: ago(60) }, NOW, false)).toMatchObject({
      state: 'off',
      notSent: 3,
      reason: 'no review channel: REVIEW_WEBHOOK_URL is not set, or REPOSITORY_URL was not set at build',
    });
    expect(reviewPart({ notSent: 1, oldestFoundAt: ago(2) }, NOW).state).toBe('degraded');
    expect(reviewPart({ notSent: 2, oldestFoundAt: ago(20) }, NOW)).toEqual({
      state: 'failing',
      reason: '2 review message(s) not sent, the oldest for 20 min',
      notSent: 2,
      oldestNotSentSeconds: 1200,
    });
  });

  it('journal: degraded once a confirmed event has waited over 15 minutes for git, off without commits configured', () => {
    expect(journalPart(null, NOW)).toMatchObject({ state: 'off', notInGit: 0 });
    expect(journalPart({ notInGit: 0, oldestConfirmedAt: null }, NOW)).toEqual({
      state: 'ok',
      reason: null,
      notInGit: 0,
    });
    // Within the quarter hour a commit is under way (its retries included): no fault.
    expect(journalPart({ notInGit: 1, oldestConfirmedAt: ago(15) }, NOW).state).toBe('ok');
    expect(journalPart({ notInGit: 2, oldestConfirmedAt: ago(16) }, NOW)).toEqual({
      state: 'degraded',
      reason: '2 confirmed event(s) not in git yet, the oldest confirmed 16 min ago',
      notInGit: 2,
    });
    expect(journalPart({ notInGit: 0, oldestConfirmedAt: null }, NOW, 'GITHUB_TOKEN is not set')).toEqual({
      state: 'off',
      reason: 'confirmed events are not committed to git: GITHUB_TOKEN is not set',
      notInGit: 0,
    });
    expect(journalPart({ notInGit: 1, oldestConfirmedAt: ago(1) }, NOW, 'GITHUB_TOKEN is not set')).toMatchObject({
      state: 'degraded',
      notInGit: 1,
    });
  });

  it('channel caps: degraded when a channel is full', () => {
    expect(channelCapsPart([{ channel: 'push', subscribers: 2, cap: 3 }])).toEqual({
      state: 'ok',
      reason: null,
      reached: [],
    });
    expect(channelCapsPart([{ channel: 'slack', subscribers: 3, cap: 3 }]).reached).toEqual(['slack']);
  });
});

describe('alerts', () => {
  it('tells a part turning failing, not again within the hour, again after it, and once when it recovers', () => {
    const first = alertDecision(null, true, NOW);
    expect(first).toEqual({ send: 'failing', next: { failing: true, told: true, toldAt: NOW.toISOString() } });
    expect(alertDecision(first.next, true, at(59)).send).toBeNull();
    expect(alertDecision(first.next, true, at(60)).send).toBe('still failing');
    const recovered = alertDecision(first.next, false, at(10));
    expect(recovered).toEqual({
      send: 'recovered',
      next: { failing: false, told: false, toldAt: NOW.toISOString() },
    });
    expect(alertDecision(recovered.next, false, at(11)).send).toBeNull();
  });

  it('a part failing again within the hour of its last message is told when the hour is over', () => {
    const recovered = { failing: false, told: false, toldAt: NOW.toISOString() };
    const again = alertDecision(recovered, true, at(20));
    expect(again).toEqual({ send: null, next: { failing: true, told: false, toldAt: NOW.toISOString() } });
    expect(alertDecision(again.next, true, at(60)).send).toBe('failing');
    // Recovered again before that: nothing was told of the second failing, so nothing of its recovery.
    expect(alertDecision(again.next, false, at(30)).send).toBeNull();
  });

  it('never tells a part that was never failing', () => {
    expect(alertDecision(null, false, NOW)).toEqual({
      send: null,
      next: { failing: false, told: false, toldAt: null },
    });
  });

  it('words the message in each platform', () => {
    const text = alertText('cron', 'failing', '3 scheduled runs failed in a row', 'https://board.example/api/health');
    expect(text).toBe(
      'Departures Board: the cron is failing: 3 scheduled runs failed in a row. https://board.example/api/health',
    );
    expect(alertText('cron', 'recovered', null, 'https://board.example/api/health')).toBe(
      'Departures Board: the cron recovered. https://board.example/api/health',
    );
    expect(alertMessage('discord', 'a < b')).toEqual({ content: 'a < b', allowed_mentions: { parse: [] } });
    expect(alertMessage('slack', 'a < b')).toEqual({ text: 'a &lt; b' });
  });
});
