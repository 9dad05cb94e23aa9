-- Web Push (docs/push.md, decisions.md "Push notifications"). No personal data: a browser's push endpoint and
-- keys, the topics chosen, the language. No IP address, user agent or cookie.

-- One row per browser push endpoint; a POST for an existing endpoint replaces its keys, topics and language.
CREATE TABLE subscriptions (
  id INTEGER PRIMARY KEY,
  endpoint TEXT NOT NULL UNIQUE,
  p256dh TEXT NOT NULL,
  auth TEXT NOT NULL,
  locale TEXT NOT NULL CHECK (locale IN ('en', 'zh')),
  created_at TEXT NOT NULL,
  -- When the current run of failed deliveries began (null while deliveries succeed); 7 days of it drops the row.
  failing_since TEXT
);

-- The topics a subscription chose: one row per (provider, kind), so that fan-out is an indexed range scan.
CREATE TABLE subscription_topics (
  provider TEXT NOT NULL,
  kind TEXT NOT NULL,
  subscription_id INTEGER NOT NULL REFERENCES subscriptions (id) ON DELETE CASCADE,
  PRIMARY KEY (provider, kind, subscription_id)
) WITHOUT ROWID;
CREATE INDEX subscription_topics_by_subscription ON subscription_topics (subscription_id);

-- Each (event, transition) the dispatcher found due, once: the row's insertion is the claim that makes
-- overlapping or repeated cron runs fan out only once. `suppressed` marks history present at the first dispatch,
-- recorded as sent without sending.
CREATE TABLE notifications (
  event_id TEXT NOT NULL,
  transition TEXT NOT NULL CHECK (transition IN ('announced', 'effective')),
  provider TEXT NOT NULL,
  kind TEXT NOT NULL,
  found_at TEXT NOT NULL,
  suppressed INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (event_id, transition)
) WITHOUT ROWID;

-- The delivery ledger: at most one push per (subscription, event, transition), whatever the queue retries.
CREATE TABLE deliveries (
  subscription_id INTEGER NOT NULL REFERENCES subscriptions (id) ON DELETE CASCADE,
  event_id TEXT NOT NULL,
  transition TEXT NOT NULL,
  sent_at TEXT NOT NULL,
  PRIMARY KEY (subscription_id, event_id, transition)
) WITHOUT ROWID;
