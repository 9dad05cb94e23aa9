import { buildEdgeDataset, type EdgeDataset } from '../core/dataset.ts';
import type { Event } from '../core/schemas.ts';
import { PROVIDERS } from '../core/vocabulary.ts';

/**
 * The small board the pages' warm-up renders (src/server/page-warm-up.ts): six resets per provider before a fixed
 * day. A build-time module (src/integrations/build-time-modules.ts): the build derives it and the bundle holds the
 * result, so a new isolate parses it and runs none of the derivation, which no page request runs either (a page
 * reads the data set the build wrote).
 */
const DAY_MS = 86_400_000;

export const WARM_UP_NOW = '2026-01-29T12:00:00.000Z';

function warmUpEvents(now: Date): Event[] {
  return PROVIDERS.flatMap((provider, index) =>
    Array.from({ length: 6 }, (_, reset): Event => {
      const at = new Date(now.getTime() - (reset * (6 + index) + 1 + index) * DAY_MS).toISOString();
      return {
        id: `warm-up-${provider}-${reset}`,
        provider,
        kind: 'reset',
        scope: 'global',
        announcedAt: at,
        effectiveAt: null,
        sourceUrl: `https://posts.example/${provider}/${reset}`,
        sourceAccount: `${provider}_team`,
        summary: 'Usage limits have been reset for everyone.',
        audience: [],
        verified: true,
      };
    }),
  );
}

export const WARM_UP_DATASET: EdgeDataset = buildEdgeDataset(
  warmUpEvents(new Date(WARM_UP_NOW)),
  new Date(WARM_UP_NOW),
);
