-- WebSub (docs/push.md, "WebSub"; decisions.md "WebSub"). Nothing about the subscriber: the callback it named, the
-- topic, the secret it chose for the signatures, and how long the lease runs. No IP address, user agent or cookie.
-- (0005 is the watcher's.)

-- One row per verified (topic, callback); a renewed subscription replaces its secret and lease. A row exists only
-- once the callback confirmed the intent (WebSub §5.3): pending requests travel in the queue, never stored.
CREATE TABLE websub_subscriptions (
  id INTEGER PRIMARY KEY,
  topic TEXT NOT NULL,
  callback TEXT NOT NULL,
  -- The key of the X-Hub-Signature HMAC, as the subscriber gave it; null when it gave none (no signature then).
  secret TEXT,
  -- When the lease ends (the verification's time + hub.lease_seconds): nothing is sent after it, and the row goes.
  expires_at TEXT NOT NULL,
  -- When the current run of failed deliveries began (null while deliveries succeed); 7 days of it drops the row.
  failing_since TEXT,
  UNIQUE (topic, callback)
);
CREATE INDEX websub_subscriptions_by_expiry ON websub_subscriptions (expires_at);

-- The delivery ledger: at most one delivery per (subscription, change), whatever the queue retries. A change is one
-- dispatch run's new (event, transition) pairs, named by the first of them.
CREATE TABLE websub_deliveries (
  subscription_id INTEGER NOT NULL REFERENCES websub_subscriptions (id) ON DELETE CASCADE,
  change TEXT NOT NULL,
  sent_at TEXT NOT NULL,
  PRIMARY KEY (subscription_id, change)
) WITHOUT ROWID;
CREATE INDEX websub_deliveries_by_sent_at ON websub_deliveries (sent_at);
