import { execFile } from 'node:child_process';
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryD1File } from '../../scripts/lib/local-d1.ts';
import { projectRoot, runWrangler } from '../../scripts/lib/tools.ts';
import { localD1FileName } from '../support/d1-lock.ts';
import { scaled } from '../../scripts/lib/load-scaled.ts';
import { tempFolder } from '../support/temp-folders.ts';

/**
 * `npm run state:move` (docs/delivery.md, "Running it locally and deploying") on a local state folder: a database of
 * the older shape (`departures-board-push`, its migrations 0001–0007 applied by wrangler, rows of every part) is moved
 * into a new one, and what arrives is read back with SQLite and compared with what was written, by hand.
 */

const OLD_ID = 'state-move-old';
const NEW_ID = 'state-move-new';
let folder: string;
let state: string;

const d1File = (id: string) => path.join(state, 'v3/d1/miniflare-D1DatabaseObject', localD1FileName(id));

function moveState(): Promise<{ code: number; output: string }> {
  const args = ['scripts/state-move.ts', '--local', '--persist-to', state, '--from-id', OLD_ID, '--to-id', NEW_ID];
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd: projectRoot, timeout: scaled(180_000) }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : Number(error.code ?? 1), output: `${stdout}${stderr}` }),
    );
  });
}

const rows = (id: string, sql: string) => queryD1File(d1File(id), sql);

beforeAll(async () => {
  folder = tempFolder('state-move-test');
  state = path.join(folder, 'state');
  // The older deployment: its migrations, 0001–0007 (kept as a fixture), applied by wrangler as its deploys did.
  const oldMigrations = path.join(projectRoot, 'tests/fixtures/push-database');
  const config = path.join(folder, 'wrangler.json');
  await writeFile(
    config,
    JSON.stringify({
      name: 'old-deployment',
      d1_databases: [
        {
          binding: 'PUSH_DB',
          database_name: 'departures-board-push',
          database_id: OLD_ID,
          migrations_dir: oldMigrations,
        },
      ],
    }),
  );
  await runWrangler(['d1', 'migrations', 'apply', 'PUSH_DB', '--local', '--persist-to', state, '--config', config]);
  const database = new DatabaseSync(d1File(OLD_ID));
  database.exec(`
    INSERT INTO subscriptions (id, endpoint, p256dh, auth, locale, created_at, expiration_time)
      VALUES (1, 'https://fcm.googleapis.com/fcm/send/a', 'KEY-A', 'AUTH-A', 'en', '2026-11-01T00:00:00.000Z', NULL),
             (2, 'https://web.push.apple.com/b', 'KEY-B', 'AUTH-B', 'zh', '2026-11-02T00:00:00.000Z', 4102444800000);
    INSERT INTO subscription_topics (provider, kind, subscription_id)
      VALUES ('provider_a', 'reset', 1), ('provider_b', 'boost', 1), ('provider_c', 'reset', 2);
    INSERT INTO chat_webhooks (id, url, platform, locale, created_at, failing_since)
      VALUES (1, 'https://discord.com/api/webhooks/1/t', 'discord', 'en', '2026-11-03T00:00:00.000Z', NULL),
             (2, 'https://hooks.slack.com/services/T/B/x', 'slack', 'zh', '2026-11-04T00:00:00.000Z', '2026-11-20T00:00:00.000Z');
    INSERT INTO chat_webhook_topics (provider, kind, webhook_id) VALUES ('provider_a', 'reset', 1), ('provider_b', 'reset', 2);
    INSERT INTO websub_subscriptions (id, topic, callback, secret, expires_at)
      VALUES (1, 'https://board.example/feed.xml', 'https://reader.example/cb', 's3cret', '2026-12-10T00:00:00.000Z');
    INSERT INTO notifications (event_id, transition, provider, kind, found_at)
      VALUES ('old-event', 'announced', 'provider_a', 'reset', '2026-11-05T00:00:00.000Z');
    INSERT INTO deliveries (subscription_id, event_id, transition, sent_at)
      VALUES (1, 'old-event', 'announced', '2026-11-05T00:00:01.000Z');
    INSERT INTO dispatch_state (name, value) VALUES ('first_dispatch', 'token'), ('build:abc', '2026-11-05T00:00:00.000Z');
    INSERT INTO watch_sources (feed, etag, polled_at, failures, items, seen)
      VALUES ('https://feeds.example/a.rss', '"v1"', '2026-11-06T00:00:00.000Z', 2, 3, '["k1"]');
    INSERT INTO watch_drafts (id, provider, source_url, file, found_at, review_state, review_next_at)
      VALUES ('draft-1', 'provider_b', 'https://posts.example/1', '{"id":"draft-1"}', '2026-11-06T00:00:00.000Z',
              'sent', '2026-11-06T00:00:00.000Z');
    INSERT INTO watch_state (name, value) VALUES ('source-report', '{"checkedAt":"2026-11-06T00:00:00.000Z"}');
  `);
  database.close();
}, scaled(240_000));

describe('npm run state:move', () => {
  it(
    'moves every channel’s subscribers, their topics and the claims into the database named for the service',
    async () => {
      const { code, output } = await moveState();
      expect(code, output).toBe(0);
      expect(output).toContain('4/4 writing the rows into departures-board');

      expect(
        rows(
          NEW_ID,
          'SELECT channel, key, address, locale, data, created_at, expires_at, failing_since FROM subscribers ORDER BY id',
        ),
      ).toEqual([
        {
          channel: 'push',
          key: 'https://fcm.googleapis.com/fcm/send/a',
          address: 'https://fcm.googleapis.com/fcm/send/a',
          locale: 'en',
          data: '{"p256dh":"KEY-A","auth":"AUTH-A"}',
          created_at: '2026-11-01T00:00:00.000Z',
          expires_at: null,
          failing_since: null,
        },
        {
          channel: 'push',
          key: 'https://web.push.apple.com/b',
          address: 'https://web.push.apple.com/b',
          locale: 'zh',
          data: '{"p256dh":"KEY-B","auth":"AUTH-B"}',
          created_at: '2026-11-02T00:00:00.000Z',
          expires_at: '2100-01-01T00:00:00.000Z',
          failing_since: null,
        },
        {
          channel: 'discord',
          key: 'https://discord.com/api/webhooks/1/t',
          address: 'https://discord.com/api/webhooks/1/t',
          locale: 'en',
          data: '{}',
          created_at: '2026-11-03T00:00:00.000Z',
          expires_at: null,
          failing_since: null,
        },
        {
          channel: 'slack',
          key: 'https://hooks.slack.com/services/T/B/x',
          address: 'https://hooks.slack.com/services/T/B/x',
          locale: 'zh',
          data: '{}',
          created_at: '2026-11-04T00:00:00.000Z',
          expires_at: null,
          failing_since: '2026-11-20T00:00:00.000Z',
        },
        {
          channel: 'websub',
          key: 'https://board.example/feed.xml https://reader.example/cb',
          address: 'https://reader.example/cb',
          locale: null,
          data: '{"topic":"https://board.example/feed.xml","secret":"s3cret"}',
          // When it moved: the old table kept no creation time.
          created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
          expires_at: '2026-12-10T00:00:00.000Z',
          failing_since: null,
        },
      ]);
      expect(
        rows(
          NEW_ID,
          `SELECT s.address, t.topic FROM subscriber_topics t JOIN subscribers s ON s.id = t.subscriber_id
         ORDER BY s.address, t.topic`,
        ),
      ).toEqual([
        { address: 'https://discord.com/api/webhooks/1/t', topic: 'provider_a/reset' },
        { address: 'https://fcm.googleapis.com/fcm/send/a', topic: 'provider_a/reset' },
        { address: 'https://fcm.googleapis.com/fcm/send/a', topic: 'provider_b/boost' },
        { address: 'https://hooks.slack.com/services/T/B/x', topic: 'provider_b/reset' },
        { address: 'https://reader.example/cb', topic: 'https://board.example/feed.xml' },
        { address: 'https://web.push.apple.com/b', topic: 'provider_c/reset' },
      ]);
      // The claim stays, done: the old path sent it, and no fan-out of it may start again.
      expect(rows(NEW_ID, 'SELECT event_id, transition, fanout_done FROM notifications')).toEqual([
        { event_id: 'old-event', transition: 'announced', fanout_done: 1 },
      ]);
      expect(rows(NEW_ID, 'SELECT COUNT(*) AS n FROM deliveries')).toEqual([{ n: 0 }]);
      // Every migration of the service's database, the ones after the first too (it is migrated as migrations/ is).
      const migrations = (await readdir(path.join(projectRoot, 'migrations'))).filter((name) => name.endsWith('.sql'));
      expect(migrations.slice(0, 2)).toEqual(['0001_state.sql', '0002_review_retries.sql']);
      expect(rows(NEW_ID, 'SELECT name FROM d1_migrations ORDER BY id').map((row) => row['name'])).toEqual(
        migrations.sort(),
      );
      expect(rows(NEW_ID, 'SELECT name, value FROM dispatch_state ORDER BY name')).toEqual([
        { name: 'build:abc', value: '2026-11-05T00:00:00.000Z' },
        { name: 'first_dispatch', value: 'token' },
      ]);
      expect(rows(NEW_ID, 'SELECT feed, etag, failures, items, seen FROM watch_sources')).toEqual([
        { feed: 'https://feeds.example/a.rss', etag: '"v1"', failures: 2, items: 3, seen: '["k1"]' },
      ]);
      // The columns the old table had not (migrations/0002_review_retries.sql) start empty.
      expect(
        rows(
          NEW_ID,
          'SELECT id, provider, review_state, review_next_at, review_status, review_tried_at, review_sent_at FROM watch_drafts',
        ),
      ).toEqual([
        {
          id: 'draft-1',
          provider: 'provider_b',
          review_state: 'sent',
          review_next_at: '2026-11-06T00:00:00.000Z',
          review_status: null,
          review_tried_at: null,
          review_sent_at: null,
        },
      ]);
      expect(rows(NEW_ID, 'SELECT value FROM watch_state')).toEqual([
        { value: '{"checkedAt":"2026-11-06T00:00:00.000Z"}' },
      ]);
      // A new subscriber continues the one sequence: no id of a moved one is given again.
      expect(rows(NEW_ID, "SELECT seq FROM sqlite_sequence WHERE name = 'subscribers'")).toEqual([{ seq: 5 }]);
      // The old database is left as it was.
      expect(rows(OLD_ID, 'SELECT COUNT(*) AS n FROM subscriptions')).toEqual([{ n: 2 }]);
    },
    scaled(240_000),
  );

  it(
    'refuses to move into a database that is not empty, and says what to do',
    async () => {
      const { code, output } = await moveState();
      expect(code).toBe(1);
      expect(output).toContain('already holds subscribers, claims or drafts');
      expect(output).toContain('start again with a new, empty one');
      expect(rows(NEW_ID, 'SELECT COUNT(*) AS n FROM subscribers')).toEqual([{ n: 5 }]);
    },
    scaled(240_000),
  );
});
