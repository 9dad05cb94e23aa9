import { readFile } from 'node:fs/promises';
import { parseDatasetMarker, REAL_DATA, type DatasetMarker } from '../core/sample-data.ts';
import { datasetMarkerFile } from './events-directory.ts';

/** The marker says something that is not a marker: one line naming the file and the fix. */
export class InvalidDatasetMarker extends Error {
  override name = 'InvalidDatasetMarker';
}

/** Reads `dataset.json` beside the events folder; a missing file means real data. */
export async function readDatasetMarker(eventsRoot: string): Promise<DatasetMarker> {
  const file = datasetMarkerFile(eventsRoot);
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (text === undefined) return REAL_DATA;
  const reading = parseDatasetMarker(text);
  if (!reading.ok)
    throw new InvalidDatasetMarker(`${file}: ${reading.message}; delete the file when the events are real data`);
  return reading.marker;
}
