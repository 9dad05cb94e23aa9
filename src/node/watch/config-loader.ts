import type { Loader } from 'astro/loaders';
import { ClassificationRulesSchema } from '../../core/watch/classify.ts';
import { SourcesSchema } from '../../core/watch/sources.ts';
import { PROVIDERS } from '../../core/vocabulary.ts';
import { readConfig, WATCH_RULES_FILE, WATCH_SOURCES_FILE, WatchConfigError } from './config-file.ts';

/**
 * The `watch` content collection: `content/watch` as the worker's minute cron reads it from the build
 * (`/data/watch.json`, src/build/watch-config.ts), checked by the same reader as `npm run watch`, so that a wrong
 * file stops the build with the message the command gives. `REPOSITORY_URL` is read here, at build time, for the
 * review messages' one-click links, as it is for the provenance's commit links.
 */
export function watchConfigLoader(sourcesFile = WATCH_SOURCES_FILE, rulesFile = WATCH_RULES_FILE): Loader {
  return {
    name: 'departures-board:watch-config',
    load: async ({ store, parseData, generateDigest, logger }) => {
      let data: Record<string, unknown>;
      try {
        data = {
          sources: await readConfig(sourcesFile, SourcesSchema, PROVIDERS),
          rules: await readConfig(rulesFile, ClassificationRulesSchema),
          repositoryUrl: process.env.REPOSITORY_URL || null,
        };
      } catch (error) {
        if (!(error instanceof WatchConfigError)) throw error;
        throw new Error(`The watch configuration cannot be built:\n${error.message}`);
      }
      store.clear();
      const parsed = await parseData({ id: 'config', data });
      store.set({ id: 'config', data: parsed, digest: generateDigest(parsed) });
      logger.info(`watch configuration read from ${sourcesFile} and ${rulesFile}`);
    },
  };
}
