import { randomUUID } from 'node:crypto';
import type { AstroIntegration } from 'astro';

/**
 * One id per build, shared by the pages that write the edge's data files and the worker that checks them
 * (src/server/build-id.ts, src/core/build-stamp.ts): `BUILD_ID` from the environment, or the time and a random
 * part. The dev server gets a fixed one, `dev`: a new id is a new Vite `define`, and Vite then optimized the
 * dependencies again on every `npm run dev`, and reloaded once more when it met one it had not optimized.
 */
export function buildId(): AstroIntegration {
  return {
    name: 'departures-board:build-id',
    hooks: {
      'astro:config:setup': ({ command, updateConfig }) => {
        const id =
          command === 'dev'
            ? 'dev'
            : (process.env.BUILD_ID ?? `${new Date().toISOString()}-${randomUUID().slice(0, 8)}`);
        updateConfig({ vite: { define: { __DEPARTURES_BUILD_ID__: JSON.stringify(id) } } });
      },
    },
  };
}
