import { describe, expect, it } from 'vitest';
import { parseEventLog } from './git-event-log.ts';
import {
  EventProvenanceSchema,
  EventRecordSchema,
  eventTimelines,
  journalProvenance,
  provenanceOf,
  type HistoryCommit,
} from './provenance.ts';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const C = 'c'.repeat(40);
const D = 'd'.repeat(40);
const E = 'e'.repeat(40);

/** Log text as `git log --reverse --format=%x1e%H %ct -U0 --patch --relative` prints it, written by hand. */
const LOG = [
  `\x1e${A} 1762000000`,
  '',
  'diff --git a/provider_a/one.json b/provider_a/one.json',
  'new file mode 100644',
  'index 0000000..1111111',
  '--- /dev/null',
  '+++ b/provider_a/one.json',
  '@@ -0,0 +1 @@',
  '+{"id":"one","summary":"says \\"verified\\": true in words","verified":false}',
  'diff --git a/README.md b/README.md',
  'new file mode 100644',
  '--- /dev/null',
  '+++ b/README.md',
  '@@ -0,0 +1 @@',
  '+"verified": true',
  `\x1e${B} 1762003600`,
  '',
  'diff --git a/provider_a/one.json b/provider_a/one.json',
  'index 1111111..2222222 100644',
  '--- a/provider_a/one.json',
  '+++ b/provider_a/one.json',
  '@@ -11 +11 @@',
  '-  "verified": false',
  '+  "verified": true',
  'diff --git a/provider_b/two.json b/provider_b/two.json',
  'new file mode 100644',
  '--- /dev/null',
  '+++ b/provider_b/two.json',
  '@@ -0,0 +1,3 @@',
  '+{',
  '+  "verified": true',
  '+}',
  `\x1e${C} 1762007200`,
  '',
  // A move: the add comes first in path order, the delete after it.
  'diff --git a/provider_a/two.json b/provider_a/two.json',
  'new file mode 100644',
  '--- /dev/null',
  '+++ b/provider_a/two.json',
  '@@ -0,0 +1,3 @@',
  '+{',
  '+  "verified": true',
  '+}',
  'diff --git a/provider_b/two.json b/provider_b/two.json',
  'deleted file mode 100644',
  '--- a/provider_b/two.json',
  '+++ /dev/null',
  '@@ -1,3 +0,0 @@',
  '-{',
  '-  "verified": true',
  '-}',
  // An edit that leaves the field alone.
  'diff --git a/provider_a/one.json b/provider_a/one.json',
  '--- a/provider_a/one.json',
  '+++ b/provider_a/one.json',
  '@@ -9 +9 @@',
  '-  "summary": "old",',
  '+  "summary": "--- new",',
  `\x1e${D} 1762010800`,
  '',
  // The field removed: no longer verified.
  'diff --git a/provider_b/two.json b/provider_a/two.json',
  '--- a/provider_a/two.json',
  '+++ b/provider_a/two.json',
  '@@ -2 +1,0 @@',
  '-  "verified": true',
  `\x1e${E} 1762014400`,
  '',
  'diff --git a/provider_a/two.json b/provider_a/two.json',
  '--- a/provider_a/two.json',
  '+++ b/provider_a/two.json',
  '@@ -1,0 +2 @@',
  '+  "verified": true',
  '',
].join('\n');

const at = (seconds: number) => new Date(seconds * 1000).toISOString();

describe('parseEventLog', () => {
  it('reads commits, committer times and the verified value each change leaves', () => {
    expect(parseEventLog(LOG)).toEqual([
      { sha: A, committedAt: at(1762000000), changes: [{ id: 'one', change: 'added', verified: false }] },
      {
        sha: B,
        committedAt: at(1762003600),
        changes: [
          { id: 'one', change: 'modified', verified: true },
          { id: 'two', change: 'added', verified: true },
        ],
      },
      {
        sha: C,
        committedAt: at(1762007200),
        changes: [
          { id: 'two', change: 'added', verified: true },
          { id: 'two', change: 'deleted', verified: null },
          { id: 'one', change: 'modified', verified: null },
        ],
      },
      { sha: D, committedAt: at(1762010800), changes: [{ id: 'two', change: 'modified', verified: false }] },
      { sha: E, committedAt: at(1762014400), changes: [{ id: 'two', change: 'modified', verified: true }] },
    ]);
  });

  it('reads nothing from an empty log', () => {
    expect(parseEventLog('')).toEqual([]);
  });
});

const commit = (sha: string, hour: number, changes: HistoryCommit['changes']): HistoryCommit => ({
  sha,
  committedAt: `2026-11-01T${String(hour).padStart(2, '0')}:00:00.000Z`,
  changes,
});

describe('eventTimelines', () => {
  it('follows a file through a move, an unverification and a re-verification', () => {
    const timelines = eventTimelines(parseEventLog(LOG));
    expect(timelines.get('one')).toEqual({
      recorded: { sha: A, committedAt: at(1762000000) },
      verified: { sha: B, committedAt: at(1762003600) },
    });
    // two: verified at B, kept through the move at C, unverified at D, verified again at E.
    expect(timelines.get('two')).toEqual({
      recorded: { sha: B, committedAt: at(1762003600) },
      verified: { sha: E, committedAt: at(1762014400) },
    });
    expect(timelines.has('README')).toBe(false);
  });

  it('keeps the first recording after a delete and re-add, but starts the verification again', () => {
    const timelines = eventTimelines([
      commit(A, 1, [{ id: 'x', change: 'added', verified: true }]),
      commit(B, 2, [{ id: 'x', change: 'deleted', verified: null }]),
      commit(C, 3, [{ id: 'x', change: 'added', verified: true }]),
    ]);
    expect(timelines.get('x')).toEqual({
      recorded: { sha: A, committedAt: '2026-11-01T01:00:00.000Z' },
      verified: { sha: C, committedAt: '2026-11-01T03:00:00.000Z' },
    });
  });

  it('moves in either order within one commit keep the verification', () => {
    const deleteFirst = eventTimelines([
      commit(A, 1, [{ id: 'x', change: 'added', verified: true }]),
      commit(B, 2, [
        { id: 'x', change: 'deleted', verified: null },
        { id: 'x', change: 'added', verified: true },
      ]),
    ]);
    expect(deleteFirst.get('x')?.verified?.sha).toBe(A);
  });

  it('a file that ends unverified or deleted has no verification', () => {
    const timelines = eventTimelines([
      commit(A, 1, [
        { id: 'x', change: 'added', verified: true },
        { id: 'y', change: 'added', verified: true },
      ]),
      commit(B, 2, [
        { id: 'x', change: 'modified', verified: false },
        { id: 'y', change: 'deleted', verified: null },
      ]),
    ]);
    expect(timelines.get('x')?.verified).toBeNull();
    expect(timelines.get('y')?.verified).toBeNull();
  });
});

describe('provenanceOf', () => {
  const timeline = {
    recorded: { sha: A, committedAt: '2026-11-01T10:00:00.000Z' },
    verified: { sha: B, committedAt: '2026-11-01T10:44:31.000Z' },
  };

  it('rounds the lag to whole minutes and may be negative', () => {
    expect(provenanceOf({ announcedAt: '2026-11-01T10:00:00.000Z' }, timeline, null).lagMinutes).toBe(45); // 44.52 min
    expect(provenanceOf({ announcedAt: '2026-11-01T11:00:00.000Z' }, timeline, null).lagMinutes).toBe(-15); // −15.48 min
  });

  it('links commits under the repository URL', () => {
    const provenance = provenanceOf({ announcedAt: '2026-11-01T10:00:00.000Z' }, timeline, 'https://code.example/o/r');
    expect(provenance.recordedCommit).toEqual({ sha: A, url: `https://code.example/o/r/commit/${A}` });
    expect(provenance.verifiedCommit).toEqual({ sha: B, url: `https://code.example/o/r/commit/${B}` });
  });

  it('fits the EventRecord schema of GET /api/events/<id>', () => {
    const event = {
      id: 'one',
      provider: 'provider_a',
      kind: 'reset',
      scope: 'global',
      announcedAt: '2026-11-01T10:00:00.000Z',
      effectiveAt: null,
      sourceUrl: 'https://posts.example/one',
      sourceAccount: 'official',
      summary: 'Limits reset.',
      audience: [],
      verified: true,
    } as const;
    const record = {
      event,
      pageUrl: 'http://localhost:4321/provider_a#event-one',
      provenance: provenanceOf(event, timeline, null),
    };
    expect(EventRecordSchema.parse(record)).toEqual(record);
    expect(() =>
      EventRecordSchema.parse({ ...record, provenance: { ...record.provenance, lagMinutes: 1.5 } }),
    ).toThrow();
  });
});

describe('journalProvenance', () => {
  const confirmedAt = '2026-11-01T10:05:00.000Z';

  it('says an event confirmed through review is not yet in git, with no git fields', () => {
    const provenance = journalProvenance(
      { confirmedAt, gitState: 'pending', gitCommit: null },
      'https://code.example/o/r',
    );
    expect(provenance).toEqual({
      recordedAt: null,
      verifiedAt: null,
      recordedCommit: null,
      verifiedCommit: null,
      lagMinutes: null,
      review: { confirmedAt, state: 'awaiting-commit', commit: null },
    });
    expect(EventProvenanceSchema.parse(provenance)).toEqual(provenance);
  });

  it('names the commit once the file is in git, linked when the repository is known', () => {
    expect(
      journalProvenance({ confirmedAt, gitState: 'committed', gitCommit: A }, 'https://code.example/o/r/')?.review,
    ).toEqual({ confirmedAt, state: 'committed', commit: { sha: A, url: `https://code.example/o/r/commit/${A}` } });
    expect(journalProvenance({ confirmedAt, gitState: 'committed', gitCommit: A }, null)?.review?.commit).toEqual({
      sha: A,
      url: null,
    });
  });

  it('has none for a withdrawn entry, which is published nowhere', () => {
    expect(journalProvenance({ confirmedAt, gitState: 'cancelled', gitCommit: null }, null)).toBeNull();
  });

  it('is null in every provenance from git', () => {
    expect(provenanceOf({ announcedAt: confirmedAt }, undefined, null).review).toBeNull();
  });
});
