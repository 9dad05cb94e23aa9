import { describe, expect, it } from 'vitest';
import { estimateTrackRecord } from './track-record.ts';
import type { EventProvenance } from './provenance.ts';
import { buildProviderPageData, PAGE_LIMITS } from './provider-page.ts';
import { makeEvent, NOW } from './test-events.ts';

describe('buildProviderPageData', () => {
  const events = Array.from({ length: 2_500 }, (_, index) =>
    makeEvent({
      id: `r${index}`,
      kind: 'reset',
      announcedAt: new Date(NOW.getTime() - (index + 1) * 86_400_000 - (index % 7) * 3_600_000).toISOString(),
    }),
  );
  const page = buildProviderPageData('provider_a', events, NOW);

  it('keeps a long history bounded: the newest events, gaps and checks', () => {
    expect(page.totalEvents).toBe(2_500);
    expect(page.history).toHaveLength(PAGE_LIMITS.history);
    expect(page.history[0]!.id).toBe('r0');
    expect(page.gaps).toHaveLength(PAGE_LIMITS.gaps);
    expect(page.trackRecord.checks).toHaveLength(PAGE_LIMITS.checks);
    expect(page.trackRecord.checks.at(-1)!.reset.id).toBe('r0');
  });

  it('still takes the median error over every check', () => {
    expect(page.trackRecord.medianAbsoluteErrorDays).toBe(
      estimateTrackRecord('provider_a', events, NOW).medianAbsoluteErrorDays,
    );
  });

  it('carries the provenance of the events it shows, and only what git knew', () => {
    const known: EventProvenance = {
      recordedAt: '2026-06-14T09:00:00.000Z',
      verifiedAt: '2026-06-14T10:00:00.000Z',
      recordedCommit: { sha: 'c'.repeat(40), url: null },
      verifiedCommit: { sha: 'd'.repeat(40), url: null },
      lagMinutes: 60,
      review: null,
    };
    const unknown: EventProvenance = {
      recordedAt: null,
      verifiedAt: null,
      recordedCommit: null,
      verifiedCommit: null,
      lagMinutes: null,
      review: null,
    };
    const provenance = new Map([
      ['r0', known],
      ['r1', unknown],
      ['r2400', known], // beyond the page's 2,000 events: not carried
    ]);
    const withHistory = buildProviderPageData('provider_a', events, NOW, provenance);
    expect(withHistory.provenance).toEqual({ r0: known });
    expect(page.provenance).toEqual({});
  });
});
