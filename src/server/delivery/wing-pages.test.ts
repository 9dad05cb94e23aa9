import { describe, expect, it } from 'vitest';
import { at, atSeconds, deliveryWing, T0 } from '../../../tests/support/delivery-wing.ts';
import { REAL_D1 } from '../../../tests/support/state-d1.ts';
import { makeEvent } from '../../core/test-events.ts';
import { dispatchDue } from './dispatch.ts';
import type { DeliverMessage, FanoutMessage } from './messages.ts';
import { recoverDeliveries } from './recover.ts';
import { scaled } from '../../../scripts/lib/load-scaled.ts';

/**
 * The delivery wing's fan-out in pages (docs/delivery.md, "The pipeline"): more subscribers of a topic than one page
 * holds (1,000), over a real local D1 and Discord webhooks on a loopback receiver (tests/support/delivery-wing.ts).
 * A page's progress lives in its claim, so a lost page costs its hold's 5 minutes and never a subscriber.
 */

const wing = deliveryWing();

const reset = (id: string, provider: 'provider_a' | 'provider_c') =>
  makeEvent({ id, provider, kind: 'reset', announcedAt: at(-1).toISOString() });
/** The first dispatch ever, over the history alone: it is marked as sent, nothing leaves. */
async function firstDispatch() {
  wing.published = [makeEvent({ id: 'history-1', provider: 'provider_a', announcedAt: at(-3000).toISOString() })];
  expect(await dispatchDue(wing.env(), at(-30))).toEqual({ due: 1, enqueued: 0, suppressed: 1 });
}

describe('fan-out in pages', REAL_D1, () => {
  /** `matching` Discord webhooks of provider_c's resets on the chat receiver and, between them, others of provider_b. */
  async function manyWebhooks(matching: number) {
    const total = Math.floor((matching * 3) / 2);
    await wing.db
      .prepare(
        `WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?3)
         INSERT INTO subscribers (channel, key, address, locale, data, created_at)
         SELECT 'discord', ?1 || '/api/webhooks/' || i || '/t', ?1 || '/api/webhooks/' || i || '/t', 'en', '{}', ?2
         FROM n`,
      )
      .bind(wing.chat.origin, at(-60).toISOString(), total)
      .run();
    // Every third one chose provider_b.
    await wing.db
      .prepare(
        `INSERT INTO subscriber_topics (topic, subscriber_id)
         SELECT CASE WHEN id % 3 = 0 THEN 'provider_b/reset' ELSE 'provider_c/reset' END, id FROM subscribers`,
      )
      .run();
    const { n } = (await wing.db
      .prepare("SELECT count(*) AS n FROM subscriber_topics WHERE topic = 'provider_c/reset'")
      .first<{ n: number }>())!;
    expect(n).toBe(matching);
  }

  it(
    'reaches one more subscriber than a page holds through a second page, in messages of 10, each once; a lost page is handed on after its lease, from where it got to',
    async () => {
      // 1,000 subscribers a page (policy.ts): 1,001 take two pages.
      await manyWebhooks(1001);
      await firstDispatch();
      wing.published.push(reset('c-reset', 'provider_c'));
      expect(await dispatchDue(wing.env(), T0)).toMatchObject({ enqueued: 1 });
      expect(await wing.handle(wing.queued.take().map(({ body }) => body))).toEqual([]);

      const firstPage = wing.queued.take().map(({ body }) => body);
      const fanouts = firstPage.filter((body): body is FanoutMessage => body.type === 'fanout');
      const delivers = firstPage.filter((body): body is DeliverMessage => body.type === 'deliver');
      expect(fanouts).toHaveLength(1);
      expect(delivers.every(({ subscriberIds }) => subscriberIds.length <= 10)).toBe(true);
      const firstIds = delivers.flatMap(({ subscriberIds }) => subscriberIds);
      expect(firstIds).toHaveLength(1000);
      expect(new Set(firstIds).size).toBe(1000);
      expect(firstIds.every((id) => id % 3 !== 0)).toBe(true);

      // The next page's message is lost; the first page's deliveries go out.
      // Handed on as the queue's consumer takes them, in batches (of 10 messages here: 100 requests at once).
      for (let start = 0; start < delivers.length; start += 10)
        expect(await wing.handle(delivers.slice(start, start + 10))).toEqual([]);
      expect(wing.queued.sent).toEqual([]);
      // The lost page holds its fan-out for the queue's lease (5 minutes), then the cron hands it on.
      expect(await recoverDeliveries(wing.env(), atSeconds(299))).toEqual({ expired: 0, fanouts: 0, requeued: 0 });
      expect(await recoverDeliveries(wing.env(), atSeconds(300))).toEqual({ expired: 0, fanouts: 1, requeued: 0 });
      expect(await wing.drain()).toEqual([]);
      // The lost message comes after all: its hold was handed on, it does nothing.
      expect(await wing.handle(fanouts)).toEqual([]);
      expect(wing.queued.sent).toEqual([]);

      const paths = wing.chat.received.map(({ path }) => path);
      expect(paths).toHaveLength(1001);
      expect(new Set(paths).size).toBe(1001);
      const ids = paths.map((path) => Number(/^\/api\/webhooks\/(\d+)\/t$/.exec(path)![1]));
      expect(ids.every((id) => id % 3 !== 0)).toBe(true);
      expect(await wing.rows("SELECT count(*) AS n FROM deliveries WHERE state = 'sent'")).toEqual([{ n: 1001 }]);
      expect(await wing.rows('SELECT fanout_done, lease FROM notifications WHERE suppressed = 0')).toEqual([
        { fanout_done: 1, lease: null },
      ]);
    },
    scaled(60_000),
  );
});
