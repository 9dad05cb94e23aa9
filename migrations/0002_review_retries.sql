-- Review messages are retried until they are sent (decisions.md, "Operable"; docs/watch.md, "The review message").
-- A try that fails keeps the draft's message pending: `review_state` 'failed' now means "the last try failed, the
-- next is at `review_next_at`", no longer "given up"; 'sent' keeps its meaning. Additive: columns only.

-- The platform's HTTP status at the last failed try; 0 when it did not answer; NULL when no try failed since the
-- last success (or none was made). `review_error` keeps the reason in words (never the webhook's address).
ALTER TABLE watch_drafts ADD COLUMN review_status INTEGER;
-- When the message was last tried (whatever came of it), and when it was sent.
ALTER TABLE watch_drafts ADD COLUMN review_tried_at TEXT;
ALTER TABLE watch_drafts ADD COLUMN review_sent_at TEXT;
