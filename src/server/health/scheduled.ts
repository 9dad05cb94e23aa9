import {
  type AlertState,
  alertDecision,
  alertMessage,
  alertText,
  HEALTH_PARTS,
  type Health,
  type HealthPartName,
  nextCronRecord,
} from '../../core/health.ts';
import { outboundAddress } from '../../core/outbound/address.ts';
import { chatPlatformOf } from '../../core/outbound/chat-platform.ts';
import { BASE_URL } from '../base-url.ts';
import { postChatMessage } from '../delivery/channels/chat/post-message.ts';
import { allowsLoopbackReceivers } from '../loopback.ts';
import { readCronRecord, writeCronRecord } from './cron-record.ts';
import { type HealthBindings, readHealth } from './read.ts';

/**
 * The wrapper around the worker's `scheduled` (functions/worker.ts; docs/health.md): it runs the minute's work,
 * records the run's outcome (cron-record.ts), then judges the service's health at the run's clock and tells the
 * operator's channel (`OPS_WEBHOOK_URL`) of each part that turned failing or recovered. Alerts are judged here, once
 * a minute, never per request.
 */

export interface ScheduledBindings extends HealthBindings {
  /** The operator's channel: a Discord or Slack webhook (a secret); may be the review channel's. */
  OPS_WEBHOOK_URL?: string;
}

/** `work` runs the minute's parts and answers the names of those that failed (empty: all succeeded). */
export async function runRecordedSchedule(
  env: ScheduledBindings,
  now: Date,
  work: () => Promise<readonly string[]>,
): Promise<void> {
  let failed: string[];
  try {
    failed = [...(await work())];
  } catch (error) {
    console.error(`the scheduled run of ${now.toISOString()} failed:`, error);
    failed = ['run'];
  }
  const db = env.DB;
  if (db === undefined) return;
  try {
    const previous = await readCronRecord(db);
    let record = nextCronRecord(previous, now, failed);
    // A run that cannot record itself failed: the database took none of its writes.
    if (!(await writeCronRecord(db, record))) {
      record = nextCronRecord(previous, now, [...failed, 'record']);
      await writeCronRecord(db, record);
    }
    await sendAlerts(env, now, await readHealth(env, now, BASE_URL, record));
  } catch (error) {
    console.error(`the health check of the scheduled run of ${now.toISOString()} failed:`, error);
  }
}

const ALERT_STATE_PREFIX = 'health-alert:';
/** Each part's alert state as this isolate last decided it, for when the database takes no writes. */
const remembered = new Map<HealthPartName, AlertState & { decidedAt: string }>();

async function readAlertStates(db: D1Database): Promise<Map<string, AlertState & { decidedAt: string }>> {
  const states = new Map<string, AlertState & { decidedAt: string }>();
  try {
    const { results } = await db
      .prepare('SELECT name, value FROM dispatch_state WHERE name LIKE ?1')
      .bind(`${ALERT_STATE_PREFIX}%`)
      .all<{ name: string; value: string }>();
    for (const row of results) {
      try {
        states.set(row.name.slice(ALERT_STATE_PREFIX.length), JSON.parse(row.value));
      } catch {
        // A value that is not JSON counts as no state.
      }
    }
  } catch {
    // Unreadable: this isolate's memory stands in.
  }
  for (const [part, state] of remembered) {
    const stored = states.get(part);
    if (stored === undefined || stored.decidedAt < state.decidedAt) states.set(part, state);
  }
  return states;
}

async function writeAlertState(db: D1Database, part: HealthPartName, state: AlertState, now: Date): Promise<void> {
  const value = { ...state, decidedAt: now.toISOString() };
  remembered.set(part, value);
  try {
    await db
      .prepare(
        'INSERT INTO dispatch_state (name, value) VALUES (?1, ?2) ON CONFLICT (name) DO UPDATE SET value = excluded.value',
      )
      .bind(`${ALERT_STATE_PREFIX}${part}`, JSON.stringify(value))
      .run();
  } catch {
    // Kept in the isolate (above) until a later run can write it.
  }
}

/** The operator's channel, when `OPS_WEBHOOK_URL` is a Discord or Slack webhook the outbound rules allow. */
function opsChannel(env: ScheduledBindings): { url: string; platform: 'discord' | 'slack' } | null {
  const setting = env.OPS_WEBHOOK_URL;
  if (setting === undefined || setting === '') return null;
  const address = outboundAddress(setting, { allowLoopbackReceiver: allowsLoopbackReceivers(env) });
  const platform = address.ok ? chatPlatformOf(address.url) : null;
  if (!address.ok || platform === null) {
    console.warn('OPS_WEBHOOK_URL is not a Discord or Slack webhook the service may send to; no alert is sent');
    return null;
  }
  return { url: address.url, platform };
}

async function sendAlerts(env: ScheduledBindings, now: Date, health: Health): Promise<void> {
  const db = env.DB;
  const channel = opsChannel(env);
  if (db === undefined || channel === null) return;
  const states = await readAlertStates(db);
  const healthUrl = `${BASE_URL}/api/health`;
  for (const part of HEALTH_PARTS) {
    const previous = states.get(part) ?? null;
    const current = health.parts[part];
    const decision = alertDecision(previous, current.state === 'failing', now);
    if (decision.send !== null) {
      const text = alertText(part, decision.send, current.reason, healthUrl);
      const outcome = await postChatMessage(channel.url, alertMessage(channel.platform, text), now);
      if (outcome.kind !== 'sent') {
        // Not told: the same decision is made again next minute.
        console.warn(`the ${part} alert was not taken by the operator's channel: ${outcome.kind}`);
        continue;
      }
    }
    if (
      previous === null ||
      previous.failing !== decision.next.failing ||
      previous.told !== decision.next.told ||
      previous.toldAt !== decision.next.toldAt
    )
      await writeAlertState(db, part, decision.next, now);
  }
}
