import { z } from 'zod';
import { compareNewestFirst, isPublished } from './ordering.ts';
import { EventSchema, UtcTimestampSchema, type Event } from './schemas.ts';

/**
 * The published events as the build hands them to the edge: one static asset, drafts left out, already
 * in the service's order, so a request never sorts or filters the whole history again.
 */
export const DATASET_PATH = '/data/events.json';

export const BoardDatasetSchema = z
  .strictObject({
    builtAt: UtcTimestampSchema,
    events: z.array(EventSchema).describe('published events, newest first'),
  })
  .meta({ id: 'BoardDataset' });
export type BoardDataset = z.infer<typeof BoardDatasetSchema>;

export const buildDataset = (events: readonly Event[], builtAt: Date): BoardDataset => ({
  builtAt: builtAt.toISOString(),
  events: events.filter(isPublished).sort(compareNewestFirst),
});
