import { defineMiddleware } from 'astro:middleware';
import { DataSourceUnavailable } from './server/data-source.ts';

/**
 * A page whose data cannot be read shows the friendly "unavailable" page (503), never a stack trace. So does a
 * page that throws anything else before its first byte (a data file of the right stamp whose events are broken
 * in a way the loader's frame check does not look at, src/core/dataset.ts): logged as an error, since it is a
 * fault to fix, but answered as the data being unreadable, because Astro's own answer to a throw is a 500 in
 * plain text with the stack, which docs/security.md rules out.
 */
export const onRequest = defineMiddleware(async (context, next) => {
  try {
    return await next();
  } catch (error) {
    if (error instanceof DataSourceUnavailable) console.warn(error.message);
    else console.error('unexpected error rendering', context.url.pathname, error);
    return context.rewrite('/unavailable');
  }
});
