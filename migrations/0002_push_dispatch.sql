-- Web Push dispatch (docs/push.md, "Dispatch and delivery").

-- Small facts the dispatcher keeps about itself. `first_dispatch` is written by the first cron run that found
-- anything due, in the same transaction as that run's claims: history present then is marked as sent without
-- sending (suppressed), and every later run knows it is not the first, also when no event was due before.
CREATE TABLE dispatch_state (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;
