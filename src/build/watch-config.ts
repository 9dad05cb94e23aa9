import { getCollection } from 'astro:content';
import { stamped } from '../core/build-stamp.ts';
import { draftKeysOf, WatchConfigFileSchema } from '../core/watch/watch-config.ts';
import { buildStampId } from './dataset.ts';

/**
 * `/data/watch.json`: the `watch` collection (content/watch and REPOSITORY_URL) with the keys of the drafts of the
 * built tree (SHA-256 of each id and post URL: the file is public, and no public path lists drafts), stamped by this
 * build; the worker's minute cron reads it (src/server/watch/cron.ts).
 */
export async function watchConfigFile(): Promise<string> {
  const [config] = await getCollection('watch');
  if (config === undefined) throw new Error('the watch collection is empty (src/node/watch/config-loader.ts)');
  const draftKeys = await draftKeysOf(
    (await getCollection('events'))
      .filter(({ data }) => !data.verified)
      .map(({ data }) => ({ id: data.id, sourceUrl: data.sourceUrl })),
  );
  return JSON.stringify(WatchConfigFileSchema.parse(stamped({ ...config.data, draftKeys }, buildStampId())));
}
