import { z } from 'zod';
import { BuildStampSchema } from '../build-stamp.ts';
import { PROVIDERS } from '../vocabulary.ts';
import { ClassificationRulesSchema } from './classify.ts';
import { SourcesSchema } from './sources.ts';

/**
 * What the worker's minute cron needs of `content/watch`, carried in the build as one stamped data file: the
 * sources and the classification rules (both checked at build time, so a wrong file stops the build with the
 * message `npm run watch` gives), the repository the review links open (`REPOSITORY_URL` at build time), and the
 * drafts already in the event tree (their ids and posts are taken: the published ones are in the records).
 */

export const WATCH_CONFIG_PATH = '/data/watch.json';

export const RepositoryUrlSchema = z
  .url({ protocol: /^https?$/ })
  .transform((url) => url.replace(/\/+$/, ''))
  .describe('the repository web address, e.g. https://github.com/owner/board');

export const WatchConfigSchema = z.strictObject({
  sources: SourcesSchema,
  rules: ClassificationRulesSchema,
  repositoryUrl: RepositoryUrlSchema.nullable(),
  drafts: z
    .array(z.strictObject({ id: z.string(), sourceUrl: z.string() }))
    .describe('the unpublished events of the built tree'),
});
export type WatchConfig = z.infer<typeof WatchConfigSchema>;

export const WatchConfigFileSchema = WatchConfigSchema.extend({ stamp: BuildStampSchema });

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether a stamped `/data/watch.json` has the frame the cron walks (its values are the build's, checked then). */
export function hasWatchConfigFrame(value: unknown): value is WatchConfig {
  if (!isObject(value) || !isObject(value['sources']) || !isObject(value['rules'])) return false;
  const sources = value['sources'];
  return (
    PROVIDERS.every((provider) => Array.isArray(sources[provider])) &&
    Array.isArray(value['rules']['order']) &&
    isObject(value['rules']['keywords']) &&
    (value['repositoryUrl'] === null || typeof value['repositoryUrl'] === 'string') &&
    Array.isArray(value['drafts'])
  );
}
