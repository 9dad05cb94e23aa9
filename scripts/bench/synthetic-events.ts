import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { seededRandom } from '../../src/core/seeded-random.ts';
import { serializeEventFile } from '../../src/core/content/new-event.ts';
import type { Event } from '../../src/core/schemas.ts';
import { PROVIDERS, type EventKind } from '../../src/core/vocabulary.ts';

/**
 * Synthetic event trees for the growth benchmark: a realistic mix (mostly resets, fewer boosts, promotions,
 * teases and banked cards; providers of unequal activity; a few plan-scoped events, a few later effective
 * times, a few drafts), deterministic for a given count, spread over the years before `end`.
 */

const KIND_WEIGHTS: [EventKind, number][] = [
  ['reset', 60],
  ['boost', 15],
  ['promo', 10],
  ['tease', 8],
  ['banked', 7],
];
const PROVIDER_WEIGHTS = [40, 35, 25];

const pick = <T>(next: () => number, weighted: [T, number][]): T => {
  const total = weighted.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = next() * total;
  for (const [value, weight] of weighted) {
    roll -= weight;
    if (roll < 0) return value;
  }
  return weighted.at(-1)![0];
};

export function syntheticEvents(count: number, end: Date): Event[] {
  const next = seededRandom(count);
  // About 20 events a day across the three providers, so 100,000 events span some 14 years.
  const spanMs = Math.max(365, count / 20) * 86_400_000;
  return Array.from({ length: count }, (_, index) => {
    const provider = pick(
      next,
      PROVIDERS.map((name, position) => [name, PROVIDER_WEIGHTS[position]!] as [typeof name, number]),
    );
    const kind = pick(next, KIND_WEIGHTS);
    const announcedMs = end.getTime() - Math.floor(next() * spanMs) - 60_000;
    const id = `syn-${index}`;
    return {
      id,
      provider,
      kind,
      scope: next() < 0.15 ? 'plan:pro' : 'global',
      announcedAt: new Date(announcedMs).toISOString(),
      effectiveAt:
        next() < 0.03 ? new Date(announcedMs + 3_600_000 * (1 + Math.floor(next() * 48))).toISOString() : null,
      sourceUrl: `https://posts.${provider.replace('_', '-')}.example/${id}`,
      sourceAccount: `${provider}_official`,
      summary: `Synthetic ${kind} announcement number ${index}: usage limits, plans and windows, for the benchmark.`,
      audience: [],
      verified: next() > 0.03,
    };
  });
}

export async function writeSyntheticTree(root: string, count: number, end: Date): Promise<void> {
  for (const provider of PROVIDERS) await mkdir(path.join(root, provider), { recursive: true });
  const events = syntheticEvents(count, end);
  for (let start = 0; start < events.length; start += 500) {
    await Promise.all(
      events
        .slice(start, start + 500)
        .map((event) => writeFile(path.join(root, event.provider, `${event.id}.json`), serializeEventFile(event))),
    );
  }
}
