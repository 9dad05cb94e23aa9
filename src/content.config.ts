import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { EventSchema } from './core/schemas.ts';
import { eventsDirectory } from './node/events-directory.ts';

export const collections = {
  events: defineCollection({
    loader: glob({ pattern: '*/*.json', base: eventsDirectory() }),
    schema: EventSchema,
  }),
};
