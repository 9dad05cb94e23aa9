import { z } from 'zod';
import { lazySchema } from './lazy-schema.ts';
import { EventSchema, UtcTimestampSchema, type Event } from './schemas.ts';

/**
 * Where a published event came from in the repository: when its file was first committed (`recordedAt`),
 * when it was marked verified (`verifiedAt`), in which commits, and how long after the post the
 * verification came (`lagMinutes`). Derived from the git history at build time (see node/provenance.ts);
 * every field is null when that history is not available (a tarball, a shallow clone, no git).
 *
 * Times are committer dates: the moment a commit entered the repository (the author date is when someone
 * wrote the change, which may be days before it landed). The history is read along the first parent, so a
 * change merged from a branch counts from the commit that brought it into the main line.
 */

/** A commit, by its full sha, with its page when `REPOSITORY_URL` is known (`{REPOSITORY_URL}/commit/<sha>`). */
export const CommitRefSchema = lazySchema(() =>
  z
    .strictObject({
      sha: z.string().regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/, 'must be a full git object name'),
      url: z.url().nullable().describe('{REPOSITORY_URL}/commit/<sha>; null when the repository URL is not configured'),
    })
    .meta({ id: 'CommitRef' }),
);
export type CommitRef = z.infer<typeof CommitRefSchema>;

/**
 * An event a reviewer confirmed on its review page and the edge publishes from the confirmed-events journal
 * (decisions.md, "Confirmed within a minute") until a build that holds its file serves: when it was confirmed, and
 * whether its file has reached git yet.
 */
export const ReviewProvenanceSchema = lazySchema(() =>
  z
    .strictObject({
      confirmedAt: UtcTimestampSchema.describe('when a reviewer confirmed the event on its review page'),
      state: z
        .enum(['awaiting-commit', 'committed'])
        .describe('`awaiting-commit`: its file is not in git yet (tried again until it lands); `committed`: it is'),
      commit: CommitRefSchema.nullable().describe('the commit that put its file in git; null while awaiting it'),
    })
    .meta({ id: 'ReviewProvenance' }),
);
export type ReviewProvenance = z.infer<typeof ReviewProvenanceSchema>;

export const EventProvenanceSchema = lazySchema(() =>
  z
    .strictObject({
      recordedAt: UtcTimestampSchema.nullable().describe(
        'committer date of the commit that first added the event file',
      ),
      verifiedAt: UtcTimestampSchema.nullable().describe(
        'committer date of the commit from which the file has said verified: true',
      ),
      recordedCommit: CommitRefSchema.nullable(),
      verifiedCommit: CommitRefSchema.nullable(),
      lagMinutes: z
        .int()
        .nullable()
        .describe('verifiedAt − announcedAt in whole minutes (rounded); negative if the commit date precedes the post'),
      review: ReviewProvenanceSchema.nullable().describe(
        'confirmed through review, not yet in git: set while the event is published from the review journal, before a build holds it (its git fields are then null); null for every event from git',
      ),
    })
    .meta({ id: 'EventProvenance' }),
);
export type EventProvenance = z.infer<typeof EventProvenanceSchema>;

export const EventRecordSchema = lazySchema(() =>
  z
    .strictObject({
      event: EventSchema,
      pageUrl: z.url().describe('{base_url}/<provider>#event-<id>'),
      provenance: EventProvenanceSchema,
    })
    .meta({ id: 'EventRecord' }),
);
export type EventRecord = z.infer<typeof EventRecordSchema>;

/** What an event has when the history is unknown. */
export const UNKNOWN_PROVENANCE: EventProvenance = Object.freeze({
  recordedAt: null,
  verifiedAt: null,
  recordedCommit: null,
  verifiedCommit: null,
  lagMinutes: null,
  review: null,
});

/** One commit of the history of the event tree, oldest first, with what it did to each event file. */
export interface HistoryCommit {
  sha: string;
  /** Committer date, ISO 8601 UTC with milliseconds. */
  committedAt: string;
  changes: FileChange[];
}

/**
 * What a commit did to one event file, keyed by the event id (the file name), so that a move between
 * provider folders (a delete and an add of the same name in one commit) keeps the event's story.
 * `verified` is the value of the `verified` field in the new version, or null when the diff does not show
 * it (a modification that left the field alone).
 */
export interface FileChange {
  id: string;
  change: 'added' | 'modified' | 'deleted';
  verified: boolean | null;
}

interface CommitStamp {
  sha: string;
  committedAt: string;
}

/** Per id: the first commit that added it, and the commit that began its current verified streak. */
export interface EventTimeline {
  recorded: CommitStamp;
  verified: CommitStamp | null;
}

/**
 * Folds the history (oldest commit first) into a timeline per event id.
 * - recorded: the first commit in which a file of that name appeared; a later delete and re-add keeps it.
 * - verified: the commit after which the file has said `verified: true` ever since. Turning false again,
 *   or the file disappearing, ends the streak; the next commit that makes it true starts a new one.
 * A move within one commit (deleted in one folder, added in another) is not a disappearance.
 */
export function eventTimelines(history: Iterable<HistoryCommit>): Map<string, EventTimeline> {
  const timelines = new Map<string, EventTimeline>();
  const verifiedNow = new Map<string, boolean>();
  for (const commit of history) {
    const stamp = { sha: commit.sha, committedAt: commit.committedAt };
    const after = new Map<string, { present: boolean; verified: boolean }>();
    for (const change of commit.changes) {
      const previous = after.get(change.id);
      if (change.change === 'deleted') {
        if (previous?.present !== true) after.set(change.id, { present: false, verified: false });
        continue;
      }
      const known = change.verified ?? previous?.verified ?? verifiedNow.get(change.id) ?? false;
      after.set(change.id, { present: true, verified: known });
    }
    for (const [id, state] of after) {
      const wasVerified = verifiedNow.get(id) === true;
      const isVerified = state.present && state.verified;
      if (state.present) verifiedNow.set(id, state.verified);
      else verifiedNow.delete(id);
      let timeline = timelines.get(id);
      if (state.present && timeline === undefined) {
        timeline = { recorded: stamp, verified: null };
        timelines.set(id, timeline);
      }
      if (timeline === undefined) continue;
      if (isVerified && !wasVerified) timeline.verified = stamp;
      if (!isVerified) timeline.verified = null;
    }
  }
  return timelines;
}

export const commitUrl = (repositoryUrl: string, sha: string): string =>
  `${repositoryUrl.replace(/\/+$/, '')}/commit/${sha}`;

const MS_PER_MINUTE = 60_000;

/** The published provenance of one event from its timeline (null: the event has no committed history). */
export function provenanceOf(
  event: Pick<Event, 'announcedAt'>,
  timeline: EventTimeline | undefined,
  repositoryUrl: string | null,
): EventProvenance {
  if (timeline === undefined) return UNKNOWN_PROVENANCE;
  const ref = (stamp: CommitStamp): CommitRef => ({
    sha: stamp.sha,
    url: repositoryUrl ? commitUrl(repositoryUrl, stamp.sha) : null,
  });
  const verified = timeline.verified;
  return {
    recordedAt: timeline.recorded.committedAt,
    verifiedAt: verified?.committedAt ?? null,
    recordedCommit: ref(timeline.recorded),
    verifiedCommit: verified ? ref(verified) : null,
    lagMinutes: verified
      ? Math.round((Date.parse(verified.committedAt) - Date.parse(event.announcedAt)) / MS_PER_MINUTE)
      : null,
    review: null,
  };
}

/** What the journal knows of an entry (src/server/journal/store.ts, `JournalEntry`). */
export interface JournalProvenanceFacts {
  confirmedAt: string;
  gitState: 'pending' | 'committed' | 'cancelled';
  /** The commit's sha once the file is in git. */
  gitCommit: string | null;
}

/**
 * The provenance of an event published from the confirmed-events journal (for `/api/events/<id>` at the edge): its
 * git history is not the build's yet, so the git fields are null and `review` says where it stands. Null for a
 * withdrawn entry (`cancelled`), which is published nowhere.
 */
export function journalProvenance(entry: JournalProvenanceFacts, repositoryUrl: string | null): EventProvenance | null {
  if (entry.gitState === 'cancelled') return null;
  const sha = entry.gitState === 'committed' ? entry.gitCommit : null;
  return {
    ...UNKNOWN_PROVENANCE,
    review: {
      confirmedAt: entry.confirmedAt,
      state: entry.gitState === 'committed' ? 'committed' : 'awaiting-commit',
      commit: sha === null ? null : { sha, url: repositoryUrl ? commitUrl(repositoryUrl, sha) : null },
    },
  };
}

/** Provenance of each given event by id, from the history of the event tree (oldest commit first). */
export function provenanceByEventId(
  events: readonly Pick<Event, 'id' | 'announcedAt'>[],
  history: Iterable<HistoryCommit>,
  repositoryUrl: string | null,
): Map<string, EventProvenance> {
  const timelines = eventTimelines(history);
  return new Map(events.map((event) => [event.id, provenanceOf(event, timelines.get(event.id), repositoryUrl)]));
}
