import { defineMiddleware } from 'astro:middleware';
import { DataSourceUnavailable } from './server/data-source.ts';

/** A page whose data cannot be read shows the friendly "unavailable" page (503), never a stack trace. */
export const onRequest = defineMiddleware(async (context, next) => {
  try {
    return await next();
  } catch (error) {
    if (!(error instanceof DataSourceUnavailable)) throw error;
    console.warn(error.message);
    return context.rewrite('/unavailable');
  }
});
