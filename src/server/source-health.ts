import { sourcesResponse, type SourcesResponse, UNKNOWN_SOURCES } from '../core/sources.ts';
import { SOURCE_REPORT_KEY } from '../core/sources.ts';
import { readWorkerReport } from './watch/store.ts';

/** Where source reports are kept: the worker's minute cron writes D1, `npm run watch` writes Workers KV. */
export interface SourceHealthStores {
  SOURCE_HEALTH: Pick<KVNamespace, 'get'>;
  DB?: D1Database;
}

const UNREAD = Symbol('unread');

async function readStored(store: string, read: () => Promise<string | null>): Promise<string | null | typeof UNREAD> {
  try {
    return await read();
  } catch (error) {
    console.warn(`the source report in ${store} could not be read:`, String(error));
    return UNREAD;
  }
}

/**
 * The sources' health at `now` (GET /api/sources and the board's line): the newest of the two reports, the
 * minute cron's (D1; written every minute, so not in Workers KV, whose free plan allows 1,000 writes a day) and
 * the last `npm run watch` run's (KV). A value that is not a report, or a KV read that fails, counts as none and is
 * logged: the board still answers. A state database that cannot be read (unreachable, or not migrated) makes the
 * answer `unknown` whatever KV holds: the minute cron's report is where the truth is, and GET /api/health says why.
 */
export async function readSourceHealth(stores: SourceHealthStores, now: Date): Promise<SourcesResponse> {
  return (await readSourceHealthFacts(stores, now)).response;
}

/** The same, and whether the state database's report could not be read (GET /api/health's watcher part). */
export async function readSourceHealthFacts(
  stores: SourceHealthStores,
  now: Date,
): Promise<{ response: SourcesResponse; databaseUnread: boolean }> {
  const { DB: db } = stores;
  const stored = await Promise.all([
    readStored('Workers KV', () => stores.SOURCE_HEALTH.get(SOURCE_REPORT_KEY)),
    db === undefined ? null : readStored('D1', () => readWorkerReport(db)),
  ]);
  if (stored[1] === UNREAD) return { response: UNKNOWN_SOURCES, databaseUnread: true };
  let newest: SourcesResponse | undefined;
  for (const text of stored) {
    if (text === UNREAD) continue;
    const { response, problem } = sourcesResponse(text, now);
    if (problem !== null) console.warn(problem);
    if (newest === undefined || (response.checkedAt ?? '') > (newest.checkedAt ?? '')) newest = response;
  }
  return { response: newest ?? UNKNOWN_SOURCES, databaseUnread: false };
}
