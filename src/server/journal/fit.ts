import { journalFit, type JournalMisfit, summaryWithJournal } from '../../core/journal/merge.ts';
import type { Event } from '../../core/schemas.ts';
import { BASE_URL } from '../base-url.ts';
import { loadEdgeSummaries } from '../data-source.ts';
import { journalEvents } from './read.ts';

/**
 * Whether a reviewer's event can be published through the journal now (src/core/journal/merge.ts, `journalFit`),
 * judged against the serving build's summary (`/data/summaries.json`, 15 KiB, as the status reads it) with the
 * live journal folded in.
 */
export async function journalMisfit(
  env: { ASSETS: Pick<Fetcher, 'fetch'>; DB?: D1Database },
  event: Event,
): Promise<JournalMisfit | null> {
  const [summaries, journal] = await Promise.all([loadEdgeSummaries(env.ASSETS, BASE_URL), journalEvents(env.DB)]);
  return journalFit(summaryWithJournal(summaries[event.provider], journal), event);
}
