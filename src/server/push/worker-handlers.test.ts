import { afterEach, describe, expect, it, vi } from 'vitest';
import { stamped } from '../../core/build-stamp.ts';
import { buildEdgeDataset } from '../../core/dataset.ts';
import { vapidForTest } from '../../../tests/support/test-vapid.ts';
import { runScheduledDispatch } from './worker-handlers.ts';

/**
 * The cron's body when what it needs is gone: it logs what failed and ends normally, leaving the work for the
 * next minute (a scheduled handler that throws is retried by nobody; locally `/__scheduled` answered 500).
 */

const MINUTE = new Date('2026-04-07T08:15:00.000Z');
const { secrets } = vapidForTest();
const boardJson = () => Response.json(stamped(buildEdgeDataset([], MINUTE), 'test-build'));
const missing = () => new Response('Not Found', { status: 404 });
const lockedD1 = {
  prepare: () => ({ bind: () => ({}) }),
  batch: () => Promise.reject(new Error('D1_ERROR: database is locked: SQLITE_BUSY')),
} as unknown as D1Database;
const queue = { send: async () => undefined, sendBatch: async () => undefined } as unknown as Queue;

const env = (assets: () => Response, db: D1Database) => ({
  ...secrets,
  ASSETS: { fetch: async () => assets() },
  PUSH_DB: db,
  PUSH_QUEUE: queue,
});

afterEach(() => vi.restoreAllMocks());

describe('runScheduledDispatch when a store is unavailable', () => {
  it.each([
    ['D1 is locked', env(boardJson, lockedD1), /database is locked/],
    ['board.json is missing', env(missing, lockedD1), /board\.json answered 404/],
  ])('%s: resolves, and logs the failure with its minute', async (_, bindings, cause) => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await expect(runScheduledDispatch(bindings, MINUTE)).resolves.toBeUndefined();
    expect(logged).toHaveBeenCalledTimes(1);
    const [message, error] = logged.mock.calls[0]!;
    expect(message).toBe("push dispatch of 2026-04-07T08:15:00.000Z failed; the next minute's run tries again:");
    expect(String(error)).toMatch(cause);
  });
});
