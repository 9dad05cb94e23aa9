import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';

/**
 * One id per build, shared by the pages that write the edge's data files and the worker that checks them
 * (src/server/build-id.ts, src/core/build-stamp.ts): `BUILD_ID` from the environment, or the time and a random
 * part. The dev server gets a fixed one, `dev`: a new id is a new Vite `define`, and Vite then optimized the
 * dependencies again on every `npm run dev`, and reloaded once more when it met one it had not optimized.
 * With it, the build's time and its list of state-database migrations (`migrations/*.sql`), which `GET /api/health`
 * compares with those D1 has applied (docs/health.md).
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
        const migrations = readdirSync(fileURLToPath(new URL('../../migrations/', import.meta.url)))
          .filter((name) => name.endsWith('.sql'))
          .sort();
        updateConfig({
          vite: {
            define: {
              __DEPARTURES_BUILD_ID__: JSON.stringify(id),
              __DEPARTURES_BUILT_AT__: JSON.stringify(new Date().toISOString()),
              __DEPARTURES_MIGRATIONS__: JSON.stringify(migrations),
            },
          },
        });
      },
    },
  };
}
