import { EventIdSchema } from './schemas.ts';
import type { FileChange, HistoryCommit } from './provenance.ts';

/**
 * Reading the one `git log` pass over the event tree (node/provenance.ts runs it) into commits and the
 * changes they made to event files. The command prints, oldest commit first, a header line per commit
 * (`COMMIT_MARK<sha> <committer unix seconds>`, from `--format=%x1e%H %ct`) followed by its patch with paths
 * relative to the event tree (`--relative`, `--no-renames`, any context size).
 */

export const COMMIT_MARK = '\x1e';
export const GIT_LOG_FORMAT = '%x1e%H %ct';

/** `<provider>/<id>.json`, the layout of the event tree; anything else (a README, a quoted odd name) is ignored. */
const EVENT_PATH = /^[^/]+\/([^/]+)\.json$/;
/** The field as JSON writes it; a quote inside a summary is escaped (`\"verified\"`), so it cannot match. */
const VERIFIED_FIELD = /"verified"\s*:\s*(true|false)/g;

const eventIdOfPath = (file: string): string | null => {
  const id = EVENT_PATH.exec(file)?.[1];
  return id !== undefined && EventIdSchema.safeParse(id).success ? id : null;
};

const lastVerifiedValue = (line: string): boolean | null => {
  let value: boolean | null = null;
  for (const match of line.matchAll(VERIFIED_FIELD)) value = match[1] === 'true';
  return value;
};

interface OpenFile {
  id: string | null;
  change: FileChange['change'];
  inHunks: boolean;
  added: boolean | null;
  removedField: boolean;
}

const toChange = (file: OpenFile): FileChange | null => {
  if (file.id === null) return null;
  if (file.change === 'deleted') return { id: file.id, change: 'deleted', verified: null };
  if (file.change === 'added') return { id: file.id, change: 'added', verified: file.added ?? false };
  // A modification that removed the field without writing it again leaves the event unverified.
  return { id: file.id, change: 'modified', verified: file.added ?? (file.removedField ? false : null) };
};

/** The commits of the log text, in the order printed (oldest first with `--reverse`). */
export function parseEventLog(text: string): HistoryCommit[] {
  const commits: HistoryCommit[] = [];
  let commit: HistoryCommit | null = null;
  let file: OpenFile | null = null;
  const closeFile = () => {
    const change = file && toChange(file);
    if (change && commit) commit.changes.push(change);
    file = null;
  };
  for (const line of text.split('\n')) {
    if (line.startsWith(COMMIT_MARK)) {
      closeFile();
      const [sha = '', seconds = ''] = line.slice(COMMIT_MARK.length).trim().split(' ');
      commit = { sha, committedAt: new Date(Number(seconds) * 1000).toISOString(), changes: [] };
      commits.push(commit);
      continue;
    }
    if (line.startsWith('diff --git ')) {
      closeFile();
      // With --no-renames both sides name the same path; take the new side.
      const path = / b\/(.+)$/.exec(line)?.[1] ?? '';
      file = { id: eventIdOfPath(path), change: 'modified', inHunks: false, added: null, removedField: false };
      continue;
    }
    if (file === null) continue;
    const open: OpenFile = file;
    if (!open.inHunks) {
      if (line.startsWith('new file mode')) open.change = 'added';
      else if (line.startsWith('deleted file mode')) open.change = 'deleted';
      else if (line.startsWith('@@')) open.inHunks = true;
      continue;
    }
    if (line.startsWith('+')) open.added = lastVerifiedValue(line) ?? open.added;
    else if (line.startsWith('-') && lastVerifiedValue(line) !== null) open.removedField = true;
  }
  closeFile();
  return commits;
}
