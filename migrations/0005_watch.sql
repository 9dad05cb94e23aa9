-- The watcher in the worker's minute cron (docs/watch.md; decisions.md "Watched every minute, reviewed at once").
-- Nothing about people: public feeds, the posts they carried, and the state of a review message.

-- One row per watched feed: the validators of its last readable answer (for conditional requests), when it was
-- last asked, its failures in a row and the time its backoff ends, its last line of the source report (JSON), the
-- posts its last answer held (for a 304), and the keys of the posts already settled (JSON list).
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

-- The pending drafts: one per post, kept so that a post is proposed once (a new post is one whose URL no event
-- and no draft has). `file` is the event file as the review link carries it. The review message: waiting (to be
-- sent at `review_next_at`), sent, or failed (given up, with the reason).
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
