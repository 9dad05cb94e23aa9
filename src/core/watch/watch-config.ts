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
 *
 * The file is served on a public path like every built file, and no public path lists drafts (decisions.md,
 * "Confirmed within a minute"): of the tree's drafts it carries only the SHA-256 of each id and of each post URL,
 * enough for the cron to tell whether a post it found is one of them, and nothing a reader could list them from.
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
  draftKeys: z
    .array(z.string().regex(/^[0-9a-f]{64}$/))
    .describe('the SHA-256 (hex) of the id and of the post URL of each unpublished event of the built tree, sorted'),
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
    Array.isArray(value['draftKeys'])
  );
}

/** SHA-256 of `text` as UTF-8, in lower-case hex: a draft's key (its id's, or its post URL's). */
export async function draftKey(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The keys `/data/watch.json` carries for `drafts`: each id's and each post URL's, sorted, each once. */
export async function draftKeysOf(drafts: readonly { id: string; sourceUrl: string }[]): Promise<string[]> {
  const keys = await Promise.all(drafts.flatMap(({ id, sourceUrl }) => [draftKey(id), draftKey(sourceUrl)]));
  return [...new Set(keys)].sort();
}
