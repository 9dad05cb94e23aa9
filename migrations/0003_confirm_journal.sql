-- Confirmed within a minute (decisions.md; docs/watch.md, "Confirm"). Additive: a table and columns only.

-- A reviewer's decision on a draft, taken on the review page (`/review/<draft id>`): 'confirmed' or 'rejected'
-- (no CHECK: the words live in the code). A decided draft is never proposed again, and its token is used.
ALTER TABLE watch_drafts ADD COLUMN decision TEXT;
ALTER TABLE watch_drafts ADD COLUMN decided_at TEXT;

-- The confirmed-events journal: one row per event confirmed on the review page. While `state` is 'live' every
-- output that lists events or derives the board includes `event` (the event file's JSON, verified: true) as if a
-- build held it; 'withdrawn' (the reviewer took it back before it reached git) and 'retired' (a build that holds
-- it serves, `retired_build`) take it out of the journal for good. `git_*` is the commit of its file through the
-- GitHub contents API: 'pending' (the next try at `git_next_at`), 'committed' (`git_commit`, the commit's sha),
-- or 'cancelled' (withdrawn first).
CREATE TABLE journal (
  id TEXT PRIMARY KEY,
  draft_id TEXT NOT NULL,
  provider TEXT NOT NULL,
  event TEXT NOT NULL,
  confirmed_at TEXT NOT NULL,
  state TEXT NOT NULL DEFAULT 'live',
  state_at TEXT NOT NULL,
  retired_build TEXT,
  git_state TEXT NOT NULL DEFAULT 'pending',
  git_attempts INTEGER NOT NULL DEFAULT 0,
  git_next_at TEXT NOT NULL,
  git_error TEXT,
  git_commit TEXT,
  -- While a try's request is in flight: until when it holds the entry (a withdrawal waits for it, since the file
  -- may be in git when it ends). NULL between tries.
  git_try_until TEXT
) WITHOUT ROWID;
CREATE INDEX journal_live ON journal (state) WHERE state = 'live';
CREATE INDEX journal_git_due ON journal (git_next_at) WHERE git_state = 'pending';

-- The journal's version: one row whose stamp every change of the journal (a confirm, a withdrawal, a retirement, a
-- commit that landed)
-- replaces with a random one, by the triggers below, so that no writer can forget it and no stamp comes back (a
-- counter would start again at 1 if the row were deleted, and an isolate could take the new journal for the old).
-- A request reads this one row (one row read); an isolate reads the journal's rows again only when the stamp changed
-- (src/server/journal/read.ts), so the rows a request reads do not grow with the journal.
CREATE TABLE journal_version (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  version TEXT NOT NULL
);
INSERT INTO journal_version (id, version) VALUES (1, lower(hex(randomblob(8))));
CREATE TRIGGER journal_inserted AFTER INSERT ON journal
BEGIN
  INSERT INTO journal_version (id, version) VALUES (1, lower(hex(randomblob(8))))
    ON CONFLICT (id) DO UPDATE SET version = excluded.version;
END;
CREATE TRIGGER journal_state_changed AFTER UPDATE OF state, git_state ON journal
BEGIN
  INSERT INTO journal_version (id, version) VALUES (1, lower(hex(randomblob(8))))
    ON CONFLICT (id) DO UPDATE SET version = excluded.version;
END;
