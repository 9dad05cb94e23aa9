import { z } from 'zod';
import { TRANSLATIONS } from './i18n/index.ts';
import { LOCALES } from './languages.ts';
import { lazyRecord } from './lazy-record.ts';
import type { Locale } from './vocabulary.ts';

/**
 * The shipped events are fictional sample data, and say so while they are served. The signal is data, not
 * a guess: the marker file `content/dataset.json` (`{"sample": true}`) travels with the sample set, and a
 * real deployment deletes it (or sets it to false) together with the sample events.
 */

export const DatasetMarkerSchema = z.strictObject({
  sample: z.boolean().describe('true while the events are the fictional sample set'),
});
export type DatasetMarker = z.infer<typeof DatasetMarkerSchema>;

/** No marker: the events are real. */
export const REAL_DATA: DatasetMarker = { sample: false };

export type MarkerReading = { ok: true; marker: DatasetMarker } | { ok: false; message: string };

export function parseDatasetMarker(text: string): MarkerReading {
  let raw: unknown;
  try {
    raw = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    return { ok: false, message: `malformed JSON: ${(error as Error).message}` };
  }
  const parsed = DatasetMarkerSchema.safeParse(raw);
  return parsed.success
    ? { ok: true, marker: parsed.data }
    : { ok: false, message: 'must be {"sample": true} or {"sample": false}' };
}

/** The response header that tells API and mirror consumers the data is sample data. */
export const SAMPLE_DATA_HEADER = 'X-Sample-Data';

/** The notice every page shows, and the Markdown mirror says, while the sample set is served. */
export const SAMPLE_DATA_NOTICE: Readonly<Record<Locale, string>> = lazyRecord(
  LOCALES,
  (locale) => TRANSLATIONS[locale].sampleDataNotice,
);
