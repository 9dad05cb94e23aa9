import { defineCollection } from 'astro:content';
import { EventProvenanceSchema } from './core/provenance.ts';
import { EventSchema } from './core/schemas.ts';
import { validatedEventsLoader } from './node/events-loader.ts';
import { eventProvenanceLoader } from './node/provenance-loader.ts';
import { watchConfigLoader } from './node/watch/config-loader.ts';
import { WatchConfigSchema } from './core/watch/watch-config.ts';

export const collections = {
  events: defineCollection({
    // Not Astro's glob loader: the build reads exactly the files `npm run validate` accepts, through the same reader.
    loader: validatedEventsLoader(),
    schema: EventSchema,
  }),
  // Each event's history in git (recorded, verified, commits), by event id: one `git log` pass per build.
  provenance: defineCollection({ loader: eventProvenanceLoader(), schema: EventProvenanceSchema.unwrap() }),
  // content/watch and REPOSITORY_URL, for the worker's minute cron (/data/watch.json, docs/watch.md).
  watch: defineCollection({ loader: watchConfigLoader(), schema: WatchConfigSchema.omit({ draftKeys: true }) }),
};
