-- `npm run state:move` (scripts/state-move.ts): the rows of an older `departures-board-push` database (schema of its
-- migrations 0001–0007, kept in tests/fixtures/push-database/), attached as `old`, into the service's database as
-- migrations/ makes it. Run once per deployment, into an empty database. Ids are given anew (every channel's
-- subscribers share one sequence now); the ledgers of the old path are left behind (each was kept only while a
-- queue message could still come again), and its claims stay, as done.

INSERT INTO subscribers (channel, key, address, locale, data, created_at, expires_at, failing_since)
SELECT 'push', endpoint, endpoint, locale, json_object('p256dh', p256dh, 'auth', auth), created_at,
       CASE WHEN expiration_time IS NULL THEN NULL
            ELSE strftime('%Y-%m-%dT%H:%M:%fZ', expiration_time / 1000.0, 'unixepoch') END,
       failing_since
FROM old.subscriptions ORDER BY id;
INSERT INTO subscriber_topics (topic, subscriber_id)
SELECT t.provider || '/' || t.kind, s.id
FROM old.subscription_topics t JOIN old.subscriptions o ON o.id = t.subscription_id
JOIN subscribers s ON s.channel = 'push' AND s.key = o.endpoint;

INSERT INTO subscribers (channel, key, address, locale, data, created_at, failing_since)
SELECT platform, url, url, locale, '{}', created_at, failing_since FROM old.chat_webhooks ORDER BY id;
INSERT INTO subscriber_topics (topic, subscriber_id)
SELECT t.provider || '/' || t.kind, s.id
FROM old.chat_webhook_topics t JOIN old.chat_webhooks o ON o.id = t.webhook_id
JOIN subscribers s ON s.channel = o.platform AND s.key = o.url;

-- The old table kept no creation time: the move's is given.
INSERT INTO subscribers (channel, key, address, locale, data, created_at, expires_at, failing_since)
SELECT 'websub', topic || ' ' || callback, callback, NULL, json_object('topic', topic, 'secret', secret),
       strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), expires_at, failing_since
FROM old.websub_subscriptions ORDER BY id;
INSERT INTO subscriber_topics (topic, subscriber_id)
SELECT json_extract(data, '$.topic'), id FROM subscribers WHERE channel = 'websub';

-- The claims, done: the old path sent them, and no fan-out of them may start again.
INSERT INTO notifications (event_id, transition, provider, kind, found_at, suppressed, fanout_done)
SELECT event_id, transition, provider, kind, found_at, suppressed, 1 FROM old.notifications;
INSERT INTO dispatch_state (name, value) SELECT name, value FROM old.dispatch_state;

INSERT INTO watch_sources SELECT * FROM old.watch_sources;
-- Named columns: the new table has more (migrations/0002_review_retries.sql), which start NULL.
INSERT INTO watch_drafts (id, provider, source_url, file, found_at, review_state, review_attempts, review_next_at,
                          review_error)
SELECT id, provider, source_url, file, found_at, review_state, review_attempts, review_next_at, review_error
FROM old.watch_drafts;
INSERT INTO watch_state SELECT * FROM old.watch_state;
