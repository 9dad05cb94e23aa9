-- Chat webhooks (docs/push.md, "Chat webhooks"; decisions.md "Chat webhooks (Discord, Slack)"). On push's delivery
-- path: the same cron claims (`notifications`), the same queue. No personal data: a channel's webhook URL, the
-- platform it belongs to, the topics chosen, the language. The URL is a secret of its channel (it carries the
-- webhook's token): no endpoint ever answers it, and no log line names it.

-- One row per webhook URL (in its stored form); a POST for a known URL replaces its topics and language.
CREATE TABLE chat_webhooks (
  id INTEGER PRIMARY KEY,
  url TEXT NOT NULL UNIQUE,
  platform TEXT NOT NULL CHECK (platform IN ('discord', 'slack')),
  locale TEXT NOT NULL CHECK (locale IN ('en', 'zh')),
  created_at TEXT NOT NULL,
  -- When the current run of failed deliveries began (null while deliveries succeed); 7 days of it drops the row.
  failing_since TEXT
);

-- The topics a webhook chose: one row per (provider, kind), so that fan-out is an indexed range scan.
CREATE TABLE chat_webhook_topics (
  provider TEXT NOT NULL,
  kind TEXT NOT NULL,
  webhook_id INTEGER NOT NULL REFERENCES chat_webhooks (id) ON DELETE CASCADE,
  PRIMARY KEY (provider, kind, webhook_id)
) WITHOUT ROWID;
CREATE INDEX chat_webhook_topics_by_webhook ON chat_webhook_topics (webhook_id);

-- The delivery ledger: at most one message per (webhook, event, transition), whatever the queue retries. Pruned by
-- the cron as push's is, after 15 days, through the index on `sent_at`.
CREATE TABLE chat_deliveries (
  webhook_id INTEGER NOT NULL REFERENCES chat_webhooks (id) ON DELETE CASCADE,
  event_id TEXT NOT NULL,
  transition TEXT NOT NULL,
  sent_at TEXT NOT NULL,
  PRIMARY KEY (webhook_id, event_id, transition)
) WITHOUT ROWID;
CREATE INDEX chat_deliveries_by_sent_at ON chat_deliveries (sent_at);
