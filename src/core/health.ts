import { z } from 'zod';
import { UtcTimestampSchema } from './schemas.ts';
import { lazySchema } from './lazy-schema.ts';
import { slackText } from './chat/slack-text.ts';
import { SourcesStateSchema } from './sources.ts';

/**
 * The service's health (decisions.md, "Operable"; docs/health.md): what `GET /api/health` answers, the rule that
 * turns each part's facts into `ok`, `degraded`, `failing` (or `off`, a part this deployment does not run), the one
 * rule that turns the parts into the service's status, and the operator alerts' rule and words. Pure: the facts are
 * read by src/server/health/.
 */

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** The cron runs every minute: a last run older than this says it is not running. */
export const CRON_LATE_AFTER_MS = 5 * MINUTE_MS;
/** No successful run for this long, or this many failed runs in a row, is a failing cron. */
export const CRON_FAILING_AFTER_MS = 15 * MINUTE_MS;
export const CRON_FAILING_RUNS = 3;
/** A delivery due for this long is late (degraded), and for this long is stuck (failing). */
export const DELIVERY_LATE_AFTER_MS = 5 * MINUTE_MS;
export const DELIVERY_STUCK_AFTER_MS = 30 * MINUTE_MS;
/** A review message not sent this long after its draft was found is failing: reviews are meant to go at once. */
export const REVIEW_FAILING_AFTER_MS = 15 * MINUTE_MS;
/** A confirmed event whose file has not reached git this long after its confirm is late: commits are meant to go at once. */
export const JOURNAL_COMMIT_LATE_AFTER_MS = 15 * MINUTE_MS;
/** While a part stays failing, its operator is told again at most this often. */
export const ALERT_REPEAT_MS = HOUR_MS;

export const PartStateSchema = z.enum(['ok', 'degraded', 'failing', 'off']).meta({ id: 'HealthPartState' });
export type PartState = z.infer<typeof PartStateSchema>;

export const HealthStatusSchema = z.enum(['ok', 'degraded', 'failing']).meta({ id: 'HealthStatus' });
export type HealthStatus = z.infer<typeof HealthStatusSchema>;

/** GET /api/health's answer, made on first use (src/core/lazy-schema.ts): only the documents read it. */
export const HealthSchema = lazySchema(() => {
  const state = PartStateSchema.describe('`off`: a part this deployment does not run (counts as ok)');
  const reason = z.string().nullable().describe('why the part is not ok, in a sentence; null when ok');
  const count = z.int().nonnegative();
  /** A part: its state and the reason for it, then its own facts. */
  const part = <Facts extends z.ZodRawShape>(facts: Facts) => z.strictObject({ state, reason, ...facts });
  return z
    .strictObject({
      status: HealthStatusSchema.describe('`failing` when any part is failing (HTTP 503), else `degraded` when any is'),
      checkedAt: UtcTimestampSchema.describe('when this answer was computed'),
      parts: z.strictObject({
        build: part({
          id: z.string().nullable().describe('the build serving this answer; null in unbuilt code'),
          builtAt: UtcTimestampSchema.nullable().describe('when it was built'),
        }),
        dataFiles: part({
          readable: z.boolean().describe("the build's data files (the board's summaries and data set) could be read"),
        }),
        database: part({
          reachable: z.boolean().describe('the state database answered a read'),
          migrationsApplied: count.nullable().describe("rows of D1's `d1_migrations`; null when not reachable"),
          migrationsExpected: count.describe("the build's migration files"),
        }),
        cron: part({
          lastRun: UtcTimestampSchema.nullable().describe('the minute of the last scheduled run recorded'),
          lastSuccess: UtcTimestampSchema.nullable().describe('the minute of the last run whose every part succeeded'),
          failuresInRow: count.describe('runs that failed since the last success'),
        }),
        watcher: part({
          sources: SourcesStateSchema.describe("GET /api/sources's state"),
          watched: count.describe('sources in the last report'),
          failing: count.describe('of them, those whose last poll failed'),
        }),
        delivery: part({
          due: count.describe('deliveries pending and due now'),
          retrying: count.describe('pending deliveries already tried at least once'),
          expiredLast24h: count.describe('deliveries given up (not accepted within 24 h) in the last 24 hours'),
          oldestDueSeconds: count.nullable().describe('how long the oldest due delivery has been due; null when none'),
        }),
        reviewMessages: part({
          notSent: count.describe('drafts whose review message has not been sent'),
          oldestNotSentSeconds: count.nullable().describe('age of the oldest such draft; null when none'),
        }),
        journal: part({
          notInGit: count.describe("confirmed events (the review journal's entries) whose file is not in git yet"),
        }),
        channelCaps: part({
          reached: z.array(z.string()).describe('channels whose subscribers reached their cap (new ones get 503)'),
        }),
      }),
    })
    .meta({ id: 'Health' });
});
export type Health = z.infer<typeof HealthSchema>;
export type HealthParts = Health['parts'];
export type HealthPartName = keyof HealthParts;
export const HEALTH_PARTS = [
  'build',
  'dataFiles',
  'database',
  'cron',
  'watcher',
  'delivery',
  'reviewMessages',
  'journal',
  'channelCaps',
] as const satisfies readonly HealthPartName[];

/** The service's status from its parts: any failing makes it failing, else any degraded makes it degraded. */
export function healthStatus(parts: Readonly<Record<string, { state: PartState }>>): HealthStatus {
  const states = Object.values(parts).map((part) => part.state);
  if (states.includes('failing')) return 'failing';
  if (states.includes('degraded')) return 'degraded';
  return 'ok';
}

/** The HTTP status of an answer: 503 while failing, so that a plain uptime check sees it. */
export const healthHttpStatus = (status: HealthStatus): 200 | 503 => (status === 'failing' ? 503 : 200);

const judged = (state: PartState, why: string | null = null) => ({ state, reason: state === 'ok' ? null : why });
const age = (at: string | null, now: Date): number | null => (at === null ? null : now.getTime() - Date.parse(at));
const minutes = (ms: number) => `${Math.floor(ms / MINUTE_MS)} min`;

/** What the database part knows: `null` facts when there is no database binding. */
export interface DatabaseFacts {
  bound: boolean;
  reachable: boolean;
  applied: number | null;
  expected: number;
  problem: string | null;
}

export function databasePart(facts: DatabaseFacts): HealthParts['database'] {
  const shape = {
    reachable: facts.reachable,
    migrationsApplied: facts.applied,
    migrationsExpected: facts.expected,
  };
  if (!facts.bound) return { ...judged('off', 'no state database is bound (DB)'), ...shape };
  if (!facts.reachable)
    return {
      ...judged('failing', `the state database cannot be read${facts.problem ? `: ${facts.problem}` : ''}`),
      ...shape,
    };
  if ((facts.applied ?? 0) < facts.expected)
    return {
      ...judged('failing', `${facts.applied ?? 0} of the build's ${facts.expected} migrations are applied`),
      ...shape,
    };
  return { ...judged('ok'), ...shape };
}

/** The cron's record (dispatch_state `health:cron`), kept by the scheduled run's wrapper. */
export interface CronRecord {
  lastRun: string;
  lastSuccess: string | null;
  failuresInRow: number;
  /** The parts of the last run that failed (`watch`, `dispatch`, `recovery`, `commits`, `record`), never an error text. */
  failed: string[];
}

/** The record after one run at `now` whose failed parts are `failed` (empty: it succeeded). */
export function nextCronRecord(previous: CronRecord | null, now: Date, failed: readonly string[]): CronRecord {
  const at = now.toISOString();
  if (failed.length === 0) return { lastRun: at, lastSuccess: at, failuresInRow: 0, failed: [] };
  return {
    lastRun: at,
    lastSuccess: previous?.lastSuccess ?? null,
    failuresInRow: (previous?.failuresInRow ?? 0) + 1,
    failed: [...failed],
  };
}

export function cronPart(record: CronRecord | null, now: Date, bound: boolean): HealthParts['cron'] {
  const shape = {
    lastRun: record?.lastRun ?? null,
    lastSuccess: record?.lastSuccess ?? null,
    failuresInRow: record?.failuresInRow ?? 0,
  };
  if (!bound) return { ...judged('off', 'no state database is bound (DB), so the cron has nothing to do'), ...shape };
  if (record === null) return { ...judged('degraded', 'no scheduled run has been recorded yet'), ...shape };
  const sinceSuccess = age(record.lastSuccess, now);
  const sinceRun = age(record.lastRun, now) ?? 0;
  const failedParts = record.failed.length > 0 ? ` (last failed: ${record.failed.join(', ')})` : '';
  if (record.failuresInRow >= CRON_FAILING_RUNS)
    return { ...judged('failing', `${record.failuresInRow} scheduled runs failed in a row${failedParts}`), ...shape };
  if (sinceSuccess === null || sinceSuccess > CRON_FAILING_AFTER_MS)
    return {
      ...judged(
        'failing',
        sinceSuccess === null
          ? `no scheduled run has succeeded yet${failedParts}`
          : `no scheduled run has succeeded for ${minutes(sinceSuccess)}${failedParts}`,
      ),
      ...shape,
    };
  if (record.failuresInRow > 0)
    return { ...judged('degraded', `the last scheduled run failed${failedParts}`), ...shape };
  if (sinceRun > CRON_LATE_AFTER_MS)
    return { ...judged('degraded', `no scheduled run for ${minutes(sinceRun)}`), ...shape };
  return { ...judged('ok'), ...shape };
}

export interface WatcherFacts {
  /** Whether the build watches any source (the sample sources alone are not watched). */
  watching: boolean;
  sources: z.infer<typeof SourcesStateSchema>;
  watched: number;
  failing: number;
  /** Why the sources' state is unknown, when the reader knows (the database). */
  unknownBecause: string | null;
}

export function watcherPart(facts: WatcherFacts): HealthParts['watcher'] {
  const shape = { sources: facts.sources, watched: facts.watched, failing: facts.failing };
  if (!facts.watching && facts.sources === 'unknown')
    return { ...judged('off', 'the build watches no source (only the sample sources)'), ...shape };
  switch (facts.sources) {
    case 'failing':
      return { ...judged('failing', `${facts.failing} source(s) failing, one for over 15 min`), ...shape };
    case 'unknown':
      return {
        // The database's own part fails when it is the cause; this one says so without a second alert.
        ...judged('degraded', facts.unknownBecause ?? 'no watch run has reported yet'),
        ...shape,
      };
    case 'delayed':
      return { ...judged('degraded', 'the last watch report is older than 5 min'), ...shape };
    case 'current':
      return facts.failing > 0
        ? { ...judged('degraded', `${facts.failing} source(s) failing (for under 15 min)`), ...shape }
        : { ...judged('ok'), ...shape };
  }
}

export interface DeliveryFacts {
  due: number;
  retrying: number;
  expiredLast24h: number;
  oldestDueAt: string | null;
}

export function deliveryPart(facts: DeliveryFacts | null, now: Date): HealthParts['delivery'] {
  const oldest = facts === null ? null : age(facts.oldestDueAt, now);
  const shape = {
    due: facts?.due ?? 0,
    retrying: facts?.retrying ?? 0,
    expiredLast24h: facts?.expiredLast24h ?? 0,
    oldestDueSeconds: oldest === null ? null : Math.max(0, Math.floor(oldest / 1000)),
  };
  if (facts === null) return { ...judged('off', 'delivery is not configured (DB and DELIVERY_QUEUE)'), ...shape };
  if (oldest !== null && oldest > DELIVERY_STUCK_AFTER_MS)
    return { ...judged('failing', `a delivery has been due for ${minutes(oldest)}`), ...shape };
  if (oldest !== null && oldest > DELIVERY_LATE_AFTER_MS)
    return { ...judged('degraded', `a delivery has been due for ${minutes(oldest)}`), ...shape };
  if (facts.expiredLast24h > 0)
    return { ...judged('degraded', `${facts.expiredLast24h} deliveries expired in the last 24 h`), ...shape };
  return { ...judged('ok'), ...shape };
}

export function reviewPart(
  facts: { notSent: number; oldestFoundAt: string | null } | null,
  now: Date,
  /** Whether the deployment has a review channel (REVIEW_WEBHOOK_URL, and REPOSITORY_URL at build). */
  configured = true,
): HealthParts['reviewMessages'] {
  const oldest = facts === null ? null : age(facts.oldestFoundAt, now);
  const shape = {
    notSent: facts?.notSent ?? 0,
    oldestNotSentSeconds: oldest === null ? null : Math.max(0, Math.floor(oldest / 1000)),
  };
  if (facts === null) return { ...judged('off', 'no state database is bound (DB)'), ...shape };
  // Without a channel no review message is ever sent: drafts wait for the drafts pull request, which is not a fault.
  if (!configured)
    return {
      ...judged('off', 'no review channel: REVIEW_WEBHOOK_URL is not set, or REPOSITORY_URL was not set at build'),
      ...shape,
    };
  if (facts.notSent === 0) return { ...judged('ok'), ...shape };
  if (oldest !== null && oldest > REVIEW_FAILING_AFTER_MS)
    return {
      ...judged('failing', `${facts.notSent} review message(s) not sent, the oldest for ${minutes(oldest)}`),
      ...shape,
    };
  return { ...judged('degraded', `${facts.notSent} review message(s) not sent yet`), ...shape };
}

/**
 * The confirmed-events journal's way into git (decisions.md, "Confirmed within a minute"): `facts` null without a
 * state database; `missing` what the deployment lacks for commits (GITHUB_TOKEN, REPOSITORY_URL at build), or null.
 */
export function journalPart(
  facts: { notInGit: number; oldestConfirmedAt: string | null } | null,
  now: Date,
  missing: string | null = null,
): HealthParts['journal'] {
  const notInGit = facts?.notInGit ?? 0;
  if (facts === null) return { ...judged('off', 'no state database is bound (DB)'), notInGit };
  if (missing !== null)
    return notInGit === 0
      ? { ...judged('off', `confirmed events are not committed to git: ${missing}`), notInGit }
      : {
          ...judged('degraded', `${notInGit} confirmed event(s) wait for git, which is not configured: ${missing}`),
          notInGit,
        };
  const oldest = age(facts.oldestConfirmedAt, now);
  if (notInGit > 0 && oldest !== null && oldest > JOURNAL_COMMIT_LATE_AFTER_MS)
    return {
      ...judged(
        'degraded',
        `${notInGit} confirmed event(s) not in git yet, the oldest confirmed ${minutes(oldest)} ago`,
      ),
      notInGit,
    };
  return { ...judged('ok'), notInGit };
}

export function channelCapsPart(
  counts: readonly { channel: string; subscribers: number; cap: number }[] | null,
): HealthParts['channelCaps'] {
  if (counts === null) return { ...judged('off', 'no state database is bound (DB)'), reached: [] };
  const reached = counts.filter((entry) => entry.subscribers >= entry.cap).map((entry) => entry.channel);
  return reached.length === 0
    ? { ...judged('ok'), reached }
    : { ...judged('degraded', `new subscribers are refused: ${reached.join(', ')} reached the cap`), reached };
}

// Alerts (decisions.md, "Operable"): OPS_WEBHOOK_URL is told when a part turns failing and when it recovers.

/** What is kept per part between runs (dispatch_state `health-alert:<part>`). */
export interface AlertState {
  failing: boolean;
  /** Whether the operator was told of the current failing (false while not failing). */
  told: boolean;
  /** When the operator was last told a part is failing; null if never. */
  toldAt: string | null;
}

export type AlertDecision = { send: 'failing' | 'still failing' | 'recovered' | null; next: AlertState };

/**
 * One part at the end of a run: a part that turns failing is told at once; while it stays failing, again at most
 * once an hour; when it recovers, once, if its failing was told. A part that fails again within the hour of its last
 * failing message is told when that hour is over, if it still fails (and then of its recovery).
 */
export function alertDecision(previous: AlertState | null, failing: boolean, now: Date): AlertDecision {
  const before = previous ?? { failing: false, told: false, toldAt: null };
  const sinceTold = age(before.toldAt, now);
  const hourPassed = sinceTold === null || sinceTold >= ALERT_REPEAT_MS;
  if (failing) {
    const stays = before.failing;
    if (!hourPassed) return { send: null, next: { failing: true, told: stays && before.told, toldAt: before.toldAt } };
    return {
      send: stays && before.told ? 'still failing' : 'failing',
      next: { failing: true, told: true, toldAt: now.toISOString() },
    };
  }
  return {
    send: before.failing && before.told ? 'recovered' : null,
    next: { failing: false, told: false, toldAt: before.toldAt },
  };
}

const PART_TITLES: Readonly<Record<HealthPartName, string>> = {
  build: 'the build',
  dataFiles: 'the data files',
  database: 'the state database',
  cron: 'the cron',
  watcher: 'the watcher',
  delivery: 'delivery',
  reviewMessages: 'the review channel',
  journal: 'the journal',
  channelCaps: 'the channel caps',
};

/** The operator's message, in English: what changed, why, and where to look. */
export function alertText(
  part: HealthPartName,
  kind: 'failing' | 'still failing' | 'recovered',
  why: string | null,
  healthUrl: string,
): string {
  const title = PART_TITLES[part];
  const head =
    kind === 'recovered'
      ? `Departures Board: ${title} recovered.`
      : `Departures Board: ${title} is ${kind}${why === null ? '.' : `: ${why}.`}`;
  return `${head} ${healthUrl}`;
}

/** The alert as each platform takes it: Discord's execute-webhook `content` (pinging no one), Slack's `text`. */
export function alertMessage(platform: 'discord' | 'slack', text: string): object {
  return platform === 'discord' ? { content: text, allowed_mentions: { parse: [] } } : { text: slackText(text) };
}
