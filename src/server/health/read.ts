import { CHANNEL_NAMES } from '../../core/delivery/channels.ts';
import {
  type CronRecord,
  channelCapsPart,
  cronPart,
  databasePart,
  deliveryPart,
  type Health,
  healthStatus,
  journalPart,
  reviewPart,
  watcherPart,
} from '../../core/health.ts';
import { watchedSources } from '../../core/watch/sources.ts';
import { hasWatchConfigFrame, WATCH_CONFIG_PATH, type WatchConfig } from '../../core/watch/watch-config.ts';
import { BUILD_ID, BUILD_MIGRATIONS, BUILT_AT } from '../build-id.ts';
import { loadEdgeDataset, loadEdgeSummaries, readDataFileNow } from '../data-source.ts';
import type { DeliveryBindings } from '../delivery/bindings.ts';
import { subscriberCap } from '../delivery/caps.ts';
import { githubTarget } from '../journal/git-commit.ts';
import { readSourceHealthFacts, type SourceHealthStores } from '../source-health.ts';
import { readCronRecord } from './cron-record.ts';

/**
 * GET /api/health's facts (docs/health.md), read from what the service already records: the build's constants, its
 * data files (kept per isolate once read), a handful of counting reads of D1 (the ledger's and the drafts' indexed
 * columns, dispatch_state, `d1_migrations`) and the source report. Nothing here runs for any other route. Never a
 * secret or an address: each reason is a sentence of this module's or the core's, never an error's text.
 */

export type HealthBindings = DeliveryBindings &
  SourceHealthStores & { REVIEW_WEBHOOK_URL?: string; GITHUB_TOKEN?: string; GITHUB_API_URL?: string };

const DAY_MS = 24 * 60 * 60_000;
const NOT_KNOWN = 'not known: the state database cannot be read';

interface DatabaseFacts {
  reachable: boolean;
  applied: number | null;
  problem: string | null;
}

async function readDatabase(db: D1Database): Promise<DatabaseFacts> {
  try {
    await db.prepare('SELECT 1').first();
  } catch {
    return { reachable: false, applied: null, problem: 'a read failed' };
  }
  try {
    const row = await db.prepare('SELECT COUNT(*) AS applied FROM d1_migrations').first<{ applied: number }>();
    return { reachable: true, applied: row?.applied ?? 0, problem: null };
  } catch {
    // Wrangler makes `d1_migrations` with the first migration it applies: none is.
    return { reachable: true, applied: 0, problem: null };
  }
}

/** Reads `read`, or null when it fails (a table missing in an unmigrated database, a locked or unreachable D1). */
async function orNull<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch {
    return null;
  }
}

async function dataFilesReadable(env: HealthBindings, origin: string): Promise<WatchConfig | null | false> {
  try {
    await Promise.all([loadEdgeSummaries(env.ASSETS, origin), loadEdgeDataset(env.ASSETS, origin)]);
    const config = await readDataFileNow<unknown>(env.ASSETS, origin, WATCH_CONFIG_PATH);
    return hasWatchConfigFrame(config) ? config : null;
  } catch {
    return false;
  }
}

/**
 * The service's health at `now`. `cron` overrides the stored cron record: the scheduled run's wrapper judges the
 * run it has just finished, whose record it may not have been able to store (a locked database).
 */
export async function readHealth(
  env: HealthBindings,
  now: Date,
  origin: string,
  cron?: CronRecord | null,
): Promise<Health> {
  const db = env.DB;
  const [files, database, sources] = await Promise.all([
    dataFilesReadable(env, origin),
    db === undefined ? null : readDatabase(db),
    readSourceHealthFacts(env, now),
  ]);
  const usable = db !== undefined && database?.reachable === true;
  const iso = now.toISOString();
  const [cronRecord, delivery, review, subscribers, journal] = usable
    ? await Promise.all([
        cron === undefined ? readCronRecord(db) : Promise.resolve(cron),
        env.DELIVERY_QUEUE === undefined
          ? Promise.resolve(undefined)
          : orNull(async () => {
              const [pending, expired] = await Promise.all([
                db
                  .prepare(
                    `SELECT COALESCE(SUM(due_at <= ?1), 0) AS due, COALESCE(SUM(attempts > 0), 0) AS retrying,
                            MIN(CASE WHEN due_at <= ?1 THEN due_at END) AS oldest
                       FROM deliveries WHERE state = 'pending'`,
                  )
                  .bind(iso)
                  .first<{ due: number; retrying: number; oldest: string | null }>(),
                db
                  .prepare(`SELECT COUNT(*) AS expired FROM deliveries WHERE state = 'expired' AND done_at >= ?1`)
                  .bind(new Date(now.getTime() - DAY_MS).toISOString())
                  .first<{ expired: number }>(),
              ]);
              return {
                due: pending?.due ?? 0,
                retrying: pending?.retrying ?? 0,
                oldestDueAt: pending?.oldest ?? null,
                expiredLast24h: expired?.expired ?? 0,
              };
            }),
        orNull(() =>
          db
            .prepare(
              `SELECT COUNT(*) AS notSent, MIN(found_at) AS oldest FROM watch_drafts WHERE review_state <> 'sent'`,
            )
            .first<{ notSent: number; oldest: string | null }>(),
        ),
        orNull(async () => {
          const { results } = await db
            .prepare('SELECT channel, COUNT(*) AS subscribers FROM subscribers GROUP BY channel')
            .all<{ channel: string; subscribers: number }>();
          return results;
        }),
        orNull(() =>
          db
            .prepare(
              `SELECT COUNT(*) AS notInGit, MIN(confirmed_at) AS oldest FROM journal WHERE git_state = 'pending'`,
            )
            .first<{ notInGit: number; oldest: string | null }>(),
        ),
      ])
    : [cron ?? null, null, null, null, null];

  const expected = BUILD_MIGRATIONS?.length ?? 0;
  const databaseState = databasePart({
    bound: db !== undefined,
    reachable: database?.reachable ?? false,
    applied: database?.applied ?? null,
    expected,
    problem: database?.problem ?? null,
  });
  const databaseWhy = databaseState.state === 'failing' ? databaseState.reason : null;
  // A part whose facts could not be read is not known: degraded, saying why (the database's own part fails).
  const unknown = <T extends { state: string; reason: string | null }>(part: T): T => ({
    ...part,
    state: 'degraded',
    reason: databaseWhy === null ? `${NOT_KNOWN} now` : `${NOT_KNOWN} (${databaseWhy})`,
  });
  const bound = db !== undefined;

  const watching = files !== false && files !== null && watchedSources(files.sources).watched.length > 0;
  const failingSources = sources.response.sources.filter((source) => !source.ok).length;
  const parts: Health['parts'] = {
    build: { state: 'ok', reason: null, id: BUILD_ID ?? null, builtAt: BUILT_AT ?? null },
    dataFiles:
      files === false
        ? { state: 'failing', reason: "the build's data files cannot be read", readable: false }
        : { state: 'ok', reason: null, readable: true },
    database: databaseState,
    cron: cronPart(cronRecord, now, bound),
    watcher: watcherPart({
      watching,
      sources: sources.response.state,
      watched: sources.response.sources.length,
      failing: failingSources,
      unknownBecause:
        sources.databaseUnread || databaseWhy !== null ? `${NOT_KNOWN} (${databaseWhy ?? 'a read failed'})` : null,
    }),
    delivery: !bound
      ? deliveryPart(null, now)
      : delivery === undefined
        ? deliveryPart(null, now)
        : delivery === null
          ? unknown(deliveryPart({ due: 0, retrying: 0, expiredLast24h: 0, oldestDueAt: null }, now))
          : deliveryPart(delivery, now),
    reviewMessages: !bound
      ? reviewPart(null, now)
      : review === null
        ? unknown(reviewPart({ notSent: 0, oldestFoundAt: null }, now))
        : reviewPart(
            { notSent: review.notSent, oldestFoundAt: review.oldest },
            now,
            // Configured as the cron reads it (src/server/watch/review.ts): the secret and the build's repository.
            Boolean(env.REVIEW_WEBHOOK_URL) && files !== false && files !== null && files.repositoryUrl !== null,
          ),
    journal: journalHealth(env, bound, journal, now, unknown),
    channelCaps: !bound
      ? channelCapsPart(null)
      : subscribers === null
        ? unknown(channelCapsPart([]))
        : channelCapsPart(
            CHANNEL_NAMES.map((channel) => ({
              channel,
              subscribers: subscribers.find((row) => row.channel === channel)?.subscribers ?? 0,
              cap: subscriberCap(channel, env.SUBSCRIBER_CAPS),
            })),
          ),
  };
  if (databaseWhy !== null && parts.cron.state !== 'off' && cron === undefined) parts.cron = unknown(parts.cron);
  return { status: healthStatus(parts), checkedAt: iso, parts };
}

/** The journal's part: what waits for git, and whether commits are configured as the cron reads them (git-commit.ts). */
function journalHealth(
  env: HealthBindings,
  bound: boolean,
  facts: { notInGit: number; oldest: string | null } | null,
  now: Date,
  unknown: <T extends { state: string; reason: string | null }>(part: T) => T,
): Health['parts']['journal'] {
  if (!bound) return journalPart(null, now);
  const { missing } = githubTarget(env);
  const why = missing.length === 0 ? null : missing.join('; ');
  if (facts === null) {
    const none = journalPart({ notInGit: 0, oldestConfirmedAt: null }, now, why);
    // Not configured, nothing can be committed whatever the table holds; else what waits is not known.
    return why === null ? unknown(none) : none;
  }
  return journalPart({ notInGit: facts.notInGit, oldestConfirmedAt: facts.oldest }, now, why);
}
