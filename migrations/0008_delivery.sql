-- One delivery wing for every channel (docs/delivery.md; decisions.md "Delivery that loses nothing"): one table of
-- subscribers, one of their topics, one ledger. Rows of the channels' own tables (0001, 0006, 0007) move here; their
-- ledgers are dropped (each was kept only while a queue message could still come again; the claims in
-- `notifications` stay and keep every (event, transition) from being sent a second time).

-- One row per subscriber of any channel. `id` is AUTOINCREMENT: an id is never given twice, so a delivery meant for
-- a removed subscriber can never reach a later one. `key` is what makes two requests one subscriber of their
-- channel (the stored address; WebSub's topic and callback); `address` is where deliveries go; `data` holds the
-- channel's own fields (push keys, a WebSub secret), which only that channel reads. No CHECK on the channel or the
-- language: their lists live in the code, in one place each.
CREATE TABLE subscribers (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  channel TEXT NOT NULL,
  key TEXT NOT NULL,
  address TEXT NOT NULL,
  locale TEXT,
  data TEXT NOT NULL DEFAULT '{}',
  created_at TEXT NOT NULL,
  -- Nothing is sent after it (a push subscription's expirationTime, a WebSub lease); null for no end.
  expires_at TEXT,
  -- When the current run of failed deliveries began (null while deliveries succeed); 7 days of it drops the row.
  failing_since TEXT,
  UNIQUE (channel, key)
);

-- What a subscriber chose: `<provider>/<kind>` (push, chat) or a feed's address (WebSub). A fan-out reads the
-- subscribers of an event's topics in id order.
CREATE TABLE subscriber_topics (
  topic TEXT NOT NULL,
  subscriber_id INTEGER NOT NULL REFERENCES subscribers (id) ON DELETE CASCADE,
  PRIMARY KEY (topic, subscriber_id)
) WITHOUT ROWID;
CREATE INDEX subscriber_topics_by_subscriber ON subscriber_topics (subscriber_id);

INSERT INTO subscribers (channel, key, address, locale, data, created_at, expires_at, failing_since)
SELECT 'push', endpoint, endpoint, locale, json_object('p256dh', p256dh, 'auth', auth), created_at,
       CASE WHEN expiration_time IS NULL THEN NULL
            ELSE strftime('%Y-%m-%dT%H:%M:%fZ', expiration_time / 1000.0, 'unixepoch') END,
       failing_since
FROM subscriptions ORDER BY id;
INSERT INTO subscriber_topics (topic, subscriber_id)
SELECT t.provider || '/' || t.kind, s.id
FROM subscription_topics t JOIN subscriptions o ON o.id = t.subscription_id
JOIN subscribers s ON s.channel = 'push' AND s.key = o.endpoint;

INSERT INTO subscribers (channel, key, address, locale, data, created_at, failing_since)
SELECT platform, url, url, locale, '{}', created_at, failing_since FROM chat_webhooks ORDER BY id;
INSERT INTO subscriber_topics (topic, subscriber_id)
SELECT t.provider || '/' || t.kind, s.id
FROM chat_webhook_topics t JOIN chat_webhooks o ON o.id = t.webhook_id
JOIN subscribers s ON s.channel = o.platform AND s.key = o.url;

INSERT INTO subscribers (channel, key, address, locale, data, created_at, expires_at, failing_since)
SELECT 'websub', topic || ' ' || callback, callback, NULL, json_object('topic', topic, 'secret', secret),
       strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), expires_at, failing_since
FROM websub_subscriptions ORDER BY id;
INSERT INTO subscriber_topics (topic, subscriber_id)
SELECT json_extract(data, '$.topic'), id FROM subscribers WHERE channel = 'websub';

DROP TABLE deliveries;
DROP TABLE chat_deliveries;
DROP TABLE websub_deliveries;
DROP TABLE subscription_topics;
DROP TABLE subscriptions;
DROP TABLE chat_webhook_topics;
DROP TABLE chat_webhooks;
DROP TABLE websub_subscriptions;

-- The claims stay; each now carries its event (so that the cron can queue its deliveries again without the build
-- that published it) and how far its fan-out got. A fan-out is held by one queue message at a time (`lease`) until
-- `lease_until`; past that the cron hands it on from `fanout_after`. Claims made before this migration were fanned
-- out by the old path.
ALTER TABLE notifications ADD COLUMN event TEXT;
ALTER TABLE notifications ADD COLUMN fanout_after INTEGER NOT NULL DEFAULT 0;
ALTER TABLE notifications ADD COLUMN fanout_done INTEGER NOT NULL DEFAULT 0;
ALTER TABLE notifications ADD COLUMN lease TEXT;
ALTER TABLE notifications ADD COLUMN lease_until TEXT;
UPDATE notifications SET fanout_done = 1;
CREATE INDEX notifications_fanning_out ON notifications (lease_until) WHERE fanout_done = 0;

-- The ledger: one row per (subscriber, event, transition) the fan-out found. `pending` until it is `sent`,
-- `failed` (refused for good) or `expired` (not accepted within 24 hours of `found_at`, the moment the service
-- found the transition: `expires_at`). A pending row is due at `due_at`; while a queue message or a sender holds it,
-- `lease` names that holder until `lease_until`, and past that the cron queues it again.
CREATE TABLE deliveries (
  subscriber_id INTEGER NOT NULL REFERENCES subscribers (id) ON DELETE CASCADE,
  event_id TEXT NOT NULL,
  transition TEXT NOT NULL,
  state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent', 'failed', 'expired')),
  attempts INTEGER NOT NULL DEFAULT 0,
  due_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  lease TEXT,
  lease_until TEXT,
  done_at TEXT,
  last_error TEXT,
  PRIMARY KEY (subscriber_id, event_id, transition)
) WITHOUT ROWID;
CREATE INDEX deliveries_pending ON deliveries (due_at) WHERE state = 'pending';
CREATE INDEX deliveries_done ON deliveries (done_at) WHERE state <> 'pending';
