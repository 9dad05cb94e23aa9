import { describe, expect, it } from 'vitest';
import { EVENT_KINDS, PROVIDERS } from '../../src/core/enums.ts';
import { MS_PER_DAY } from '../../src/core/ordering.ts';
import type { Event } from '../../src/core/schemas.ts';
import { checkEventTree } from '../../src/node/check-event-tree.ts';
import { readDatasetMarker } from '../../src/node/dataset-marker.ts';

/**
 * content/events, whatever a deployment keeps there. The checks of the shipped sample set apply only while
 * content/dataset.json says the events are that set: a real data set passes with the first block alone.
 */

const ROOT = 'content/events';
const { events, problems } = await checkEventTree(ROOT);
const { sample } = await readDatasetMarker(ROOT);
const isFictionalHost = (event: Event) => new URL(event.sourceUrl).hostname.endsWith('.example');

describe('content/events', () => {
  it('is valid', () => {
    expect(problems).toEqual([]);
  });

  it('is marked as sample data whenever it holds fictional sources, so the site says so', () => {
    const fictional = events.filter(isFictionalHost).map((event) => event.sourceUrl);
    expect(
      fictional.length > 0 && !sample,
      `fictional sources without {"sample": true} in content/dataset.json: ${fictional.join(', ')}`,
    ).toBe(false);
  });
});

if (sample) {
  describe('the shipped sample data set (content/dataset.json says {"sample": true})', () => {
    const published = events.filter((event) => event.verified);

    it('fills a board: at least 60 events over at least 12 months, every provider and kind', () => {
      expect(events.length).toBeGreaterThanOrEqual(60);
      const times = published.map((event) => Date.parse(event.announcedAt));
      expect(Math.max(...times) - Math.min(...times)).toBeGreaterThanOrEqual(365 * MS_PER_DAY);
      expect(new Set(published.map((event) => event.provider))).toEqual(new Set(PROVIDERS));
      expect(new Set(published.map((event) => event.kind))).toEqual(new Set(EVENT_KINDS));
    });

    it('has global and plan-scoped events, an effectiveAt, and a few drafts', () => {
      expect(published.some((event) => event.scope === 'global')).toBe(true);
      expect(published.some((event) => event.scope.startsWith('plan:'))).toBe(true);
      expect(published.some((event) => event.effectiveAt !== null)).toBe(true);
      expect(events.filter((event) => !event.verified).length).toBeGreaterThanOrEqual(2);
    });

    it('is fictional: every source is a host under .example', () => {
      for (const event of events) expect(new URL(event.sourceUrl).hostname).toMatch(/\.example$/);
    });

    it('says what its scope says: a plan-scoped summary names its plan and claims nobody else', () => {
      const claimsEveryone =
        /everyone|every (plan|account)|all (users|plans|paid plans|accounts|limits|usage limits)|globally/i;
      const inconsistent = events
        .filter((event) => event.scope.startsWith('plan:'))
        .filter((event) => {
          const plan = event.scope.slice('plan:'.length);
          const otherPlans = ['pro', 'max', 'team'].filter(
            (other) => other !== plan && new RegExp(`\\b${other}\\b`, 'i').test(event.summary),
          );
          return (
            !new RegExp(`\\b${plan}\\b`, 'i').test(event.summary) ||
            claimsEveryone.test(event.summary) ||
            otherPlans.length > 0
          );
        })
        .map((event) => `${event.provider}/${event.id} (${event.scope}): ${event.summary}`);
      expect(inconsistent).toEqual([]);
    });

    it('gives global events no summary addressed to one plan', () => {
      const addressedToOnePlan = /\b(pro|max|team) (accounts|subscribers|plan)\b/i;
      expect(
        events
          .filter((event) => event.scope === 'global' && addressedToOnePlan.test(event.summary))
          .map((event) => event.id),
      ).toEqual([]);
    });
  });
}
