import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PROVIDERS, type Provider } from '../enums.ts';
import { summarizeProvider } from '../history.ts';
import { MS_PER_DAY, MS_PER_HOUR } from '../ordering.ts';
import type { Event } from '../schemas.ts';
import { forecastFromHistory, forecastFromSummary } from './rule.ts';
import { ForecastSchema, type Forecast } from './schemas.ts';
import { eventLists, iso, nows, SPAN, START } from './test-histories.ts';

/** Generous: each property runs 100 random histories through two paths and a reference. */
const PROPERTY_TIMEOUT_MS = 120_000;

// ---- An independent reference: the decisions' words, restated plainly over one provider's events. ----

const eff = (event: Event) => Date.parse(event.effectiveAt ?? event.announcedAt);
const ann = (event: Event) => Date.parse(event.announcedAt);
const r3 = (value: number) => Math.round(value * 1000) / 1000;

function type7(sorted: number[], p: number): number {
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.ceil(h);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

function referenceForecast(provider: Provider, events: Event[], now: Date): Forecast {
  const nowMs = now.getTime();
  const mine = events.filter((e) => e.verified && e.provider === provider && ann(e) <= nowMs);
  const resets = mine.filter((e) => e.kind === 'reset');
  const happened = resets.filter((e) => eff(e) <= nowMs).map((e) => ({ at: eff(e), announced: ann(e) }));
  happened.sort((a, b) => a.at - b.at || a.announced - b.announced);
  const last = happened.at(-1);
  const gaps = happened
    .slice(1)
    .map((reset, i) => reset.at - happened[i]!.at)
    .slice(-20);
  const t = last === undefined ? null : nowMs - last.at;
  const base = {
    provider,
    elapsedDays: t === null ? null : r3(t / MS_PER_DAY),
    sampleSize: gaps.length,
    probabilities: { '1d': null, '3d': null, '7d': null },
    likelyWindow: null,
    announcedFor: null,
  };
  if (mine.length === 0) return { ...base, basis: 'no_data' };
  const pending = resets.filter((e) => eff(e) > nowMs).map(eff);
  if (pending.length > 0) return { ...base, basis: 'announced', announcedFor: iso(Math.min(...pending)) };
  // The newest tease: latest announcement, ties to the smallest id.
  const teases = mine.filter((e) => e.kind === 'tease').sort((a, b) => ann(b) - ann(a) || (a.id < b.id ? -1 : 1));
  const tease = teases[0];
  if (tease !== undefined && tease.effectiveAt !== null && eff(tease) > nowMs) {
    const newerThanLast = last === undefined || ann(tease) > last.announced;
    // Live (status rule): newer than the last reset and fresh or pointing ahead; it points ahead here.
    if (newerThanLast) return { ...base, basis: 'teased', announcedFor: iso(eff(tease)) };
  }
  if (gaps.length < 5 || t === null) return { ...base, basis: 'insufficient' };
  const longer = gaps.filter((g) => g > t).sort((a, b) => a - b);
  if (longer.length === 0) return { ...base, basis: 'beyond_history' };
  const p = (days: number) => r3(longer.filter((g) => g <= t + days * MS_PER_DAY).length / longer.length);
  return {
    ...base,
    basis: 'cadence',
    probabilities: { '1d': p(1), '3d': p(3), '7d': p(7) },
    likelyWindow: {
      from: iso(Math.round(last!.at + type7(longer, 0.25))),
      to: iso(Math.round(last!.at + type7(longer, 0.75))),
    },
  };
}

const allForecasts = (events: Event[], now: Date) =>
  PROVIDERS.map((provider) => forecastFromHistory(provider, events, now));

describe('forecast invariants', () => {
  it('agrees with an independent reference of the decisions', { timeout: PROPERTY_TIMEOUT_MS }, () => {
    fc.assert(
      fc.property(eventLists, nows, (events, now) => {
        for (const provider of PROVIDERS)
          expect(forecastFromHistory(provider, events, now)).toEqual(referenceForecast(provider, events, now));
      }),
      { numRuns: 300 },
    );
  });

  it('probabilities lie in [0, 1], grow with the horizon, and exist exactly for a cadence basis', {
    timeout: PROPERTY_TIMEOUT_MS,
  }, () => {
    fc.assert(
      fc.property(eventLists, nows, (events, now) => {
        for (const forecast of allForecasts(events, now)) {
          expect(ForecastSchema.safeParse(forecast).success).toBe(true);
          const { '1d': p1, '3d': p3, '7d': p7 } = forecast.probabilities;
          const numbers = [p1, p3, p7].filter((value) => value !== null);
          expect(numbers.length).toBe(forecast.basis === 'cadence' ? 3 : 0);
          for (const value of numbers) expect(value).toBeGreaterThanOrEqual(0);
          for (const value of numbers) expect(value).toBeLessThanOrEqual(1);
          if (forecast.basis === 'cadence') {
            expect(p1!).toBeLessThanOrEqual(p3!);
            expect(p3!).toBeLessThanOrEqual(p7!);
          }
          expect(forecast.likelyWindow !== null).toBe(forecast.basis === 'cadence');
          expect(forecast.announcedFor !== null).toBe(forecast.basis === 'announced' || forecast.basis === 'teased');
          if (forecast.announcedFor !== null) expect(Date.parse(forecast.announcedFor)).toBeGreaterThan(now.getTime());
        }
      }),
    );
  });

  it('the likely window lies after now and within the observed gaps after the last reset', {
    timeout: PROPERTY_TIMEOUT_MS,
  }, () => {
    fc.assert(
      fc.property(eventLists, nows, (events, now) => {
        for (const provider of PROVIDERS) {
          const forecast = forecastFromHistory(provider, events, now);
          if (forecast.likelyWindow === null) continue;
          const times = events
            .filter(
              (e) =>
                e.verified &&
                e.provider === provider &&
                e.kind === 'reset' &&
                ann(e) <= now.getTime() &&
                eff(e) <= now.getTime(),
            )
            .map(eff)
            .sort((a, b) => a - b);
          const gaps = times
            .slice(1)
            .map((time, i) => time - times[i]!)
            .slice(-20);
          const last = times.at(-1)!;
          const from = Date.parse(forecast.likelyWindow.from);
          const to = Date.parse(forecast.likelyWindow.to);
          expect(from).toBeGreaterThan(now.getTime());
          expect(from).toBeLessThanOrEqual(to);
          expect(from).toBeGreaterThanOrEqual(last + Math.min(...gaps.filter((gap) => gap > now.getTime() - last)));
          expect(to).toBeLessThanOrEqual(last + Math.max(...gaps));
        }
      }),
    );
  });

  it('does not depend on the order of the input', { timeout: PROPERTY_TIMEOUT_MS }, () => {
    const eventsAndAPermutation = eventLists.chain((events) =>
      fc.tuple(
        fc.constant(events),
        fc.shuffledSubarray(events, { minLength: events.length, maxLength: events.length }),
      ),
    );
    fc.assert(
      fc.property(eventsAndAPermutation, nows, ([events, shuffled], now) => {
        expect(allForecasts(shuffled, now)).toEqual(allForecasts(events, now));
      }),
    );
  });

  it('drafts never change the result', { timeout: PROPERTY_TIMEOUT_MS }, () => {
    fc.assert(
      fc.property(eventLists, eventLists, nows, (events, extra, now) => {
        const drafts: Event[] = extra.map((event) => ({ ...event, id: `draft-${event.id}`, verified: false }));
        expect(allForecasts([...events, ...drafts], now)).toEqual(allForecasts(events, now));
      }),
    );
  });

  it('a summary made at build time answers, at any later moment, exactly as the whole history does', {
    timeout: PROPERTY_TIMEOUT_MS,
  }, () => {
    const afterEveryAnnouncement = START + SPAN + MS_PER_HOUR;
    fc.assert(
      fc.property(
        eventLists,
        fc.integer({ min: 0, max: 30 * 24 }),
        fc.integer({ min: 0, max: 40 * 24 }),
        (events, buildHours, laterHours) => {
          const builtAt = new Date(afterEveryAnnouncement + buildHours * MS_PER_HOUR);
          const now = new Date(builtAt.getTime() + laterHours * MS_PER_HOUR);
          for (const provider of PROVIDERS) {
            expect(forecastFromSummary(summarizeProvider(provider, events, builtAt), now)).toEqual(
              forecastFromHistory(provider, events, now),
            );
          }
        },
      ),
    );
  });
});
