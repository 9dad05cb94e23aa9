-- The delivery ledger is needed only while a queue message could still be delivered again (a queue keeps a
-- message at most 14 days); the cron deletes older rows in bounded slices, found through this index.
CREATE INDEX deliveries_by_sent_at ON deliveries (sent_at);
