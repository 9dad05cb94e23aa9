import { rm } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { deriveBoard } from '../../src/core/board.ts';
import { forecastFromHistory } from '../../src/core/forecast/rule.ts';
import { PROVIDERS } from '../../src/core/vocabulary.ts';
import { checkEventTree } from '../../src/node/check-event-tree.ts';
import { materializeServedEvents, SERVED_TEMPLATE_NOW } from '../support/served-events.ts';

/**
 * The served event tree means the same on any day: made at clocks years apart, it validates at its clock and the
 * board derived from it at that clock is the one the template was written for (the statuses and forecast bases
 * below, by hand), with the tease the same time ahead. What the served tests see does not depend on the date.
 */

const DAY = 86_400_000;
const CLOCKS = [
  ['the real clock', 0],
  ['150 days behind', -150],
  ['150 days ahead', 150],
  ['three years ahead', 3 * 365],
] as const;

/** The board of the template, written by hand from its files (tests/fixtures/served/events). */
const DESIGNED = {
  provider_a: { status: 'waiting', basis: 'cadence' },
  provider_b: { status: 'overdue', basis: 'beyond_history' },
  provider_c: { status: 'tease', basis: 'teased' },
} as const;
/** Provider C's tease: effective 24 Nov 2026 17:00 UTC, 3 days 5 hours after the template's moment. */
const TEASE_AHEAD_MS = Date.parse('2026-11-24T17:00:00.000Z') - SERVED_TEMPLATE_NOW.getTime();

describe('the served event tree, made from the run’s clock', () => {
  it.each(CLOCKS)('at %s: valid, and the board the template describes', async (_, days) => {
    const now = new Date(Date.now() + days * DAY);
    const { eventsDir } = await materializeServedEvents(now, { history: false });
    try {
      const { events, problems } = await checkEventTree(eventsDir, now);
      expect(problems).toEqual([]);
      const published = events.filter((event) => event.verified);
      const board = deriveBoard(published, now);
      for (const provider of PROVIDERS) {
        const status = board.providers.find((entry) => entry.provider === provider)!.status;
        const forecast = forecastFromHistory(provider, published, now);
        expect({ status, basis: forecast.basis }, provider).toEqual(DESIGNED[provider]);
        if (provider !== 'provider_c') continue;
        // The template's minute is kept, its seconds too: the tease is the same time ahead, to the minute.
        const ahead = Date.parse(forecast.announcedFor!) - now.getTime();
        expect(Math.abs(ahead - TEASE_AHEAD_MS)).toBeLessThan(60_000);
      }
    } finally {
      await rm(path.dirname(eventsDir), { recursive: true, force: true });
    }
  });
});
