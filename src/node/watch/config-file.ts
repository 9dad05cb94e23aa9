import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import { describeConfigIssues } from '../../core/watch/sources.ts';

/** A config file that cannot be used: the message names the file (and the key), never a stack trace. */
export class WatchConfigError extends Error {
  override name = 'WatchConfigError';
}

/** A watch config file, parsed and checked by `schema`; a problem is a WatchConfigError naming the file. */
export async function readConfig<T>(
  file: string,
  schema: z.ZodType<T>,
  knownTopLevelKeys?: readonly string[],
): Promise<T> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new WatchConfigError(
      `${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new WatchConfigError(`${file}: is not valid JSON (${(error as Error).message})`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success)
    throw new WatchConfigError(describeConfigIssues(file, parsed.error, knownTopLevelKeys).join('\n'));
  return parsed.data;
}

/** The watch configuration of the project: read by `npm run watch` and carried in the build (`/data/watch.json`). */
export const WATCH_SOURCES_FILE = 'content/watch/sources.json';
export const WATCH_RULES_FILE = 'content/watch/classification.json';
