-- The service's state database, `departures-board` (binding DB): every channel's subscribers, their topics, the
-- delivery ledger, the dispatch's claims and marks, and the watcher's state and drafts (docs/delivery.md, "What is
-- stored"; docs/watch.md). Migrations of this database are additive: a later one adds, never drops or renames. A
-- deployment that has the older `departures-board-push` database moves its rows here once (`npm run state:move`).
-- Nothing about people: no IP address, user agent, cookie or account. No CHECK on a list that lives in the code
-- (channels, languages).

-- One row per subscriber of any channel. `id` is AUTOINCREMENT: an id is never given twice, so a delivery meant for
-- a removed subscriber can never reach a later one. `key` is what makes two requests one subscriber of their channel
-- (the stored address; WebSub's topic and callback); `address` is where deliveries go; `data` holds the channel's
-- own fields (push keys, a WebSub secret), which only that channel reads.
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

-- Each (event, transition) the dispatch found due, once: the row's insertion is the claim that makes overlapping or
-- repeated runs fan out only once; kept for good. `suppressed` marks history present at the first dispatch, recorded
-- as done without sending. The claim carries its event (so that the cron can queue its deliveries again without the
-- build that published it) and how far its fan-out got; a fan-out is held by one queue message at a time (`lease`)
-- until `lease_until`, and past that the cron hands it on from `fanout_after`.
CREATE TABLE notifications (
  event_id TEXT NOT NULL,
  transition TEXT NOT NULL,
  provider TEXT NOT NULL,
  kind TEXT NOT NULL,
  found_at TEXT NOT NULL,
  suppressed INTEGER NOT NULL DEFAULT 0,
  event TEXT,
  fanout_after INTEGER NOT NULL DEFAULT 0,
  fanout_done INTEGER NOT NULL DEFAULT 0,
  lease TEXT,
  lease_until TEXT,
  PRIMARY KEY (event_id, transition)
) WITHOUT ROWID;
CREATE INDEX notifications_fanning_out ON notifications (lease_until) WHERE fanout_done = 0;

-- The ledger: one row per (subscriber, event, transition) the fan-out found. `pending` until it is `sent`, `failed`
-- (refused for good) or `expired` (not accepted within 24 hours of `found_at`: `expires_at`). A pending row is due
-- at `due_at`; while a queue message or a sender holds it, `lease` names that holder until `lease_until`, and past
-- that the cron queues it again. Finished rows are kept 15 days.
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

-- Small facts the dispatch keeps about itself: `first_dispatch` (written by the first run, in the same transaction as
-- its claims, whose history is then suppressed), `build:<id>` (a build's dispatch started), `dead-letters` (a count).
CREATE TABLE dispatch_state (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;

-- The watcher (docs/watch.md): one row per watched feed: the validators of its last readable answer (for conditional
-- requests), when it was last asked, its failures in a row and the time its backoff ends, its last line of the
-- source report (JSON), the posts its last answer held (for a 304), and the keys of the posts already settled.
CREATE TABLE watch_sources (
  feed TEXT PRIMARY KEY,
  etag TEXT,
  last_modified TEXT,
  polled_at TEXT,
  failures INTEGER NOT NULL DEFAULT 0,
  retry_at TEXT,
  last_check TEXT,
  items INTEGER NOT NULL DEFAULT 0,
  seen TEXT NOT NULL DEFAULT '[]'
) WITHOUT ROWID;

-- The pending drafts: one per post, kept so that a post is proposed once. `file` is the event file as the review
-- link carries it. The review message: waiting (to be sent at `review_next_at`), sent, or failed (with the reason).
CREATE TABLE watch_drafts (
  id TEXT PRIMARY KEY,
  provider TEXT NOT NULL,
  source_url TEXT NOT NULL UNIQUE,
  file TEXT NOT NULL,
  found_at TEXT NOT NULL,
  review_state TEXT NOT NULL DEFAULT 'waiting' CHECK (review_state IN ('waiting', 'sent', 'failed')),
  review_attempts INTEGER NOT NULL DEFAULT 0,
  review_next_at TEXT NOT NULL,
  review_error TEXT
) WITHOUT ROWID;
CREATE INDEX watch_drafts_waiting ON watch_drafts (review_state, review_next_at);

-- Small facts of the watcher: `source-report`, the last run's source report (GET /api/sources reads it).
CREATE TABLE watch_state (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;
