import { defineCollection } from 'astro:content';
import { EventSchema } from './core/schemas.ts';
import { validatedEventsLoader } from './node/events-loader.ts';

export const collections = {
  events: defineCollection({
    // Not Astro's glob loader: the build reads exactly the files `npm run validate` accepts, through the same reader.
    loader: validatedEventsLoader(),
    schema: EventSchema,
  }),
};
