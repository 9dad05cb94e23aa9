import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startGithubReceiver, type GithubReceiver } from '../../../tests/support/github-receiver.ts';
import { REAL_D1, stateDatabaseForFile } from '../../../tests/support/state-d1.ts';
import { serializeEventFile } from '../../core/content/new-event.ts';
import { validateEventFiles } from '../../core/content/validate-event-files.ts';
import { journalProvenance } from '../../core/provenance.ts';
import type { Event } from '../../core/schemas.ts';
import { makeEvent } from '../../core/test-events.ts';
import { confirmDraft } from './decide.ts';
import { commitConfirmed, confirmLinkConfigured, runScheduledCommits } from './git-commit.ts';
import { readJournalEntry, withdrawLive } from './store.ts';

/**
 * The journal's commits to git in-process, against a real local D1 (Miniflare's, with the repository's migrations)
 * and a repository behind a GitHub REST API on loopback (tests/support/github-receiver.ts): the first try right
 * after the confirm, the cron's retries at moved clocks, and what is never sent.
 */

const MINUTE = 60_000;
const START = new Date('2026-06-15T12:00:00.000Z');
const at = (minutes: number) => new Date(START.getTime() + minutes * MINUTE);
const OWNER = 'example-owner';
const REPO = 'departures-board';
const REPOSITORY = `https://github.com/${OWNER}/${REPO}`;
const TOKEN = 'github_pat_test_0123456789';

const database = stateDatabaseForFile();
let github: GithubReceiver;

const env = (overrides: Record<string, string | undefined> = {}) => ({
  DB: database.db,
  GITHUB_TOKEN: TOKEN,
  GITHUB_API_URL: github.origin,
  ALLOW_LOOPBACK_RECEIVERS: 'true',
  ...overrides,
});
const options = { repositoryUrl: REPOSITORY };

let serial = 0;
/** A draft found by the watcher and confirmed by a reviewer at `START`: its event is in the journal. */
async function confirmed(overrides: Partial<Event> = {}): Promise<Event> {
  serial += 1;
  const id = `19000000000000${String(serial).padStart(5, '0')}`;
  const event = makeEvent({
    id,
    sourceUrl: `https://posts.provider-a.example/@provider_a_eng/${id}`,
    announcedAt: at(-30).toISOString(),
    verified: true,
    ...overrides,
  });
  await database.db
    .prepare(
      `INSERT INTO watch_drafts (id, provider, source_url, file, found_at, review_state, review_next_at)
       VALUES (?1, ?2, ?3, ?4, ?5, 'sent', ?5)`,
    )
    .bind(
      event.id,
      event.provider,
      event.sourceUrl,
      serializeEventFile({ ...event, verified: false }),
      at(-20).toISOString(),
    )
    .run();
  expect(await confirmDraft({ DB: database.db }, event.id, event, START)).toBe('recorded');
  return event;
}

const row = async (id: string) =>
  database.db
    .prepare('SELECT git_state, git_attempts, git_next_at, git_error, git_commit FROM journal WHERE id = ?1')
    .bind(id)
    .first<{
      git_state: string;
      git_attempts: number;
      git_next_at: string;
      git_error: string | null;
      git_commit: string | null;
    }>();
const pathOf = (event: Event) => `content/events/${event.provider}/${event.id}.json`;
const puts = () => github.requests.filter((request) => request.method === 'PUT');

beforeAll(async () => {
  github = await startGithubReceiver({ owner: OWNER, repo: REPO, token: TOKEN });
}, REAL_D1.timeout);
afterAll(() => github.close());
beforeEach(() => github.forget());
afterEach(() => vi.restoreAllMocks());

describe('the journal’s commits to git', REAL_D1, () => {
  it('commits the confirmed file at once: the file as the repository writes it, validated, and the row committed with its sha', async () => {
    const event = await confirmed();
    const result = await commitConfirmed(env(), event.id, START, options);

    const [put] = puts();
    expect(put?.path).toBe(`/repos/${OWNER}/${REPO}/contents/${pathOf(event)}`);
    expect(put?.status).toBe(201);
    expect(put?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(put?.headers.accept).toBe('application/vnd.github+json');
    expect(put?.headers['x-github-api-version']).toBe('2022-11-28');
    expect(put?.headers['user-agent']).toMatch(/\S/);
    const body = JSON.parse(put!.body) as { message: string; content: string; sha?: string };
    expect(body.message).toContain(event.id);
    expect(body.sha).toBeUndefined();
    const text = Buffer.from(body.content, 'base64').toString('utf8');
    expect(text).toBe(serializeEventFile(event));
    const validation = validateEventFiles([{ path: `${event.provider}/${event.id}.json`, text }], START);
    expect(validation.problems).toEqual([]);
    expect(validation.events).toEqual([{ ...event, verified: true }]);

    const commit = github.files.get(pathOf(event))!.commits.at(-1)!.sha;
    expect(result).toEqual({ kind: 'committed', id: event.id, commit });
    expect(await row(event.id)).toMatchObject({
      git_state: 'committed',
      git_attempts: 1,
      git_commit: commit,
      git_error: null,
    });
    const entry = await readJournalEntry(database.db, event.id);
    expect(journalProvenance(entry!, REPOSITORY)?.review).toEqual({
      confirmedAt: START.toISOString(),
      state: 'committed',
      commit: { sha: commit, url: `${REPOSITORY}/commit/${commit}` },
    });
    // Committed once: the cron has nothing left to send.
    expect(await runScheduledCommits(env(), at(5), options)).toEqual([]);
    expect(puts()).toHaveLength(1);
  });

  it('leaves a 500 pending with the next try a minute on, which the cron makes when its clock gets there', async () => {
    const event = await confirmed();
    github.answerNext({ status: 500 });
    const first = await commitConfirmed(env(), event.id, START, options);
    expect(first).toMatchObject({ kind: 'failed', status: 500, nextAt: at(1).toISOString() });
    expect(await row(event.id)).toMatchObject({
      git_state: 'pending',
      git_attempts: 1,
      git_next_at: at(1).toISOString(),
      git_error: 'GitHub answered HTTP 500',
    });
    const entry = await readJournalEntry(database.db, event.id);
    expect(journalProvenance(entry!, REPOSITORY)?.review).toEqual({
      confirmedAt: START.toISOString(),
      state: 'awaiting-commit',
      commit: null,
    });

    // Not due half a minute on: nothing is sent.
    expect(await runScheduledCommits(env(), new Date(START.getTime() + 30_000), options)).toEqual([]);
    expect(puts()).toHaveLength(1);
    // A second failure doubles the wait.
    github.answerNext({ status: 502 });
    expect(await runScheduledCommits(env(), at(1), options)).toMatchObject([
      { kind: 'failed', nextAt: at(3).toISOString() },
    ]);
    expect(await runScheduledCommits(env(), at(2), options)).toEqual([]);
    const [landed] = await runScheduledCommits(env(), at(3), options);
    expect(landed).toMatchObject({ kind: 'committed', id: event.id });
    expect(await row(event.id)).toMatchObject({ git_state: 'committed', git_attempts: 3, git_error: null });
    expect(github.files.get(pathOf(event))?.text).toBe(serializeEventFile(event));
  });

  it('honours a 429’s Retry-After', async () => {
    const event = await confirmed();
    github.answerNext({ status: 429, headers: { 'Retry-After': '300' } });
    await commitConfirmed(env(), event.id, START, options);
    expect(await row(event.id)).toMatchObject({ git_state: 'pending', git_next_at: at(5).toISOString() });
    expect(await runScheduledCommits(env(), at(4), options)).toEqual([]);
    expect(await runScheduledCommits(env(), at(5), options)).toMatchObject([{ kind: 'committed' }]);
  });

  it('records a refused token in words an operator can act on, and tries again later', async () => {
    const event = await confirmed();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const result = await commitConfirmed(env({ GITHUB_TOKEN: 'github_pat_revoked' }), event.id, START, options);
    expect(result).toMatchObject({ kind: 'failed', status: 401 });
    const stored = await row(event.id);
    expect(stored).toMatchObject({ git_state: 'pending', git_next_at: at(1).toISOString() });
    expect(stored?.git_error).toContain('GITHUB_TOKEN');
    expect(stored?.git_error).toContain('401');
    expect(stored?.git_error).not.toContain('revoked');
    expect(warn.mock.calls.flat().join(' ')).not.toContain('github_pat_');
    expect(github.files.size).toBe(0);
    // The token fixed: the next due run commits it.
    expect(await runScheduledCommits(env(), at(1), options)).toMatchObject([{ kind: 'committed' }]);
  });

  it('never sends a withdrawn entry', async () => {
    const event = await confirmed();
    expect(await withdrawLive(database.db, event.id, at(0.5))).toBe(true);
    expect(await commitConfirmed(env(), event.id, at(1), options)).toBeNull();
    expect(await runScheduledCommits(env(), at(60), options)).toEqual([]);
    expect(github.requests).toEqual([]);
    expect(await row(event.id)).toMatchObject({ git_state: 'cancelled', git_attempts: 0, git_commit: null });
    expect(journalProvenance((await readJournalEntry(database.db, event.id))!, REPOSITORY)).toBeNull();
  });

  it('tries nothing without GITHUB_TOKEN, and says so', async () => {
    const event = await confirmed();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(await commitConfirmed(env({ GITHUB_TOKEN: undefined }), event.id, START, options)).toBeNull();
    expect(await runScheduledCommits(env({ GITHUB_TOKEN: '' }), at(1), options)).toEqual([]);
    expect(github.requests).toEqual([]);
    expect(await row(event.id)).toMatchObject({ git_state: 'pending', git_attempts: 0 });
    expect(warn.mock.calls.flat().join(' ')).toContain('GITHUB_TOKEN is not set');
  });

  it('sends to a loopback API only under the test switch', async () => {
    const event = await confirmed();
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(await commitConfirmed(env({ ALLOW_LOOPBACK_RECEIVERS: 'false' }), event.id, START, options)).toBeNull();
    expect(github.requests).toEqual([]);
  });

  it('sends the token to GitHub’s API alone: another https host is refused, naming the setting', async () => {
    const event = await confirmed();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const elsewhere = env({ GITHUB_API_URL: 'https://api.github.example.net', ALLOW_LOOPBACK_RECEIVERS: 'false' });
    expect(await commitConfirmed(elsewhere, event.id, START, options)).toBeNull();
    expect(github.requests).toEqual([]);
    expect([...warn.mock.calls, ...log.mock.calls].flat().join(' ')).toContain(
      'GITHUB_API_URL must be https://api.github.com',
    );
  });

  it('takes a file already in git with the same text as committed by its commit (a try whose answer was lost)', async () => {
    const event = await confirmed();
    const earlier = github.commitFile(pathOf(event), serializeEventFile(event));
    expect(await commitConfirmed(env(), event.id, START, options)).toEqual({
      kind: 'committed',
      id: event.id,
      commit: earlier,
    });
    expect(puts().map((request) => request.status)).toEqual([422]);
    expect(github.files.get(pathOf(event))?.commits).toHaveLength(1);
  });

  it('replaces a draft file of the drafts pull request (200), but lets a verified file a person committed stand', async () => {
    const draft = await confirmed();
    github.commitFile(pathOf(draft), serializeEventFile({ ...draft, verified: false }));
    const replaced = await commitConfirmed(env(), draft.id, START, options);
    expect(puts().map((request) => request.status)).toEqual([422, 200]);
    expect(replaced).toEqual({
      kind: 'committed',
      id: draft.id,
      commit: github.files.get(pathOf(draft))!.commits.at(-1)!.sha,
    });
    expect(github.files.get(pathOf(draft))?.text).toBe(serializeEventFile(draft));

    github.forget();
    const person = await confirmed();
    const theirs = serializeEventFile({ ...person, summary: 'Corrected by a person.' });
    const theirCommit = github.commitFile(pathOf(person), theirs);
    expect(await commitConfirmed(env(), person.id, START, options)).toMatchObject({
      kind: 'committed',
      commit: theirCommit,
    });
    expect(github.files.get(pathOf(person))?.text).toBe(theirs);
    expect((await row(person.id))?.git_error).toContain('stands');
  });

  it('offers the confirm link only with both REVIEW_SIGNING_KEY and GITHUB_TOKEN', () => {
    expect(confirmLinkConfigured({ REVIEW_SIGNING_KEY: 'k', GITHUB_TOKEN: 't' })).toBe(true);
    expect(confirmLinkConfigured({ REVIEW_SIGNING_KEY: 'k' })).toBe(false);
    expect(confirmLinkConfigured({ GITHUB_TOKEN: 't', REVIEW_SIGNING_KEY: '' })).toBe(false);
  });
});
