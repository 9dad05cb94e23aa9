import { serializeEventFile } from '../../core/content/new-event.ts';
import { commitRetryMs } from '../../core/github/commit-retry.ts';
import {
  confirmCommitMessage,
  contentsUrl,
  eventFilePath,
  type GithubFailure,
  GITHUB_API_DEFAULT_URL,
  type GithubRepository,
  githubHeaders,
  githubRepositoryOf,
  newestCommitUrl,
  putFileBody,
  readCommitsAnswer,
  readGetAnswer,
  readPutAnswer,
  replacesFoundFile,
} from '../../core/github/contents.ts';
import { OUTBOUND_PROBLEM_MESSAGES, outboundAddress } from '../../core/outbound/address.ts';
import { EventSchema, type Event } from '../../core/schemas.ts';
import { allowsLoopbackReceivers, type LoopbackSwitch } from '../loopback.ts';
import { REPOSITORY_URL } from '../repository-url.ts';

/**
 * Git stays the record (decisions.md, "Confirmed within a minute"): a confirmed event's file is committed to the
 * repository's default branch through the GitHub contents API, once right after the confirm (the review page's
 * POST runs `commitConfirmed` in `waitUntil`) and, when that did not land, by the minute cron
 * (`runScheduledCommits`) with a backoff (src/core/github/commit-retry.ts) until it does. A withdrawn entry
 * (`git_state = 'cancelled'`) is never sent. Without `GITHUB_TOKEN` nothing is tried and the log says so.
 */

export interface GitCommitBindings extends LoopbackSwitch {
  DB?: D1Database;
  /** A fine-grained token with "Contents: Read and write" on the repository alone (a secret). */
  GITHUB_TOKEN?: string;
  /** The REST API's address, `https://api.github.com` by default (loopback only under the test switch). */
  GITHUB_API_URL?: string;
}

export interface GitCommitOptions {
  /** The repository's address; the build's `REPOSITORY_URL` by default. */
  repositoryUrl?: string | null;
  fetcher?: typeof fetch;
}

interface GithubTarget {
  apiUrl: string;
  repository: GithubRepository;
  token: string;
}

/**
 * GitHub's API, where the token goes: `https://api.github.com`, or a loopback receiver under the test switch
 * (decisions.md), never another host, so that a mistyped or planted `GITHUB_API_URL` cannot receive the token.
 */
function githubApi(env: GitCommitBindings): { ok: true; url: string } | { ok: false; problem: string } {
  const given = env.GITHUB_API_URL || GITHUB_API_DEFAULT_URL;
  const loopback = allowsLoopbackReceivers(env);
  const api = outboundAddress(given, { allowLoopbackReceiver: loopback });
  if (!api.ok) return { ok: false, problem: `GITHUB_API_URL ${OUTBOUND_PROBLEM_MESSAGES[api.problem]}` };
  const host = new URL(api.url).hostname;
  if (api.url.replace(/\/+$/, '') === GITHUB_API_DEFAULT_URL || (loopback && host === '127.0.0.1')) return api;
  return {
    ok: false,
    problem: `GITHUB_API_URL must be ${GITHUB_API_DEFAULT_URL} (another host would receive the token)`,
  };
}

/** Where commits go, or what the deployment lacks for them (each line names the setting). */
export function githubTarget(
  env: GitCommitBindings,
  repositoryUrl: string | null = REPOSITORY_URL,
): { target: GithubTarget; missing: [] } | { target: null; missing: string[] } {
  const missing: string[] = [];
  const token = env.GITHUB_TOKEN ?? '';
  if (token === '') missing.push('GITHUB_TOKEN is not set');
  const api = githubApi(env);
  if (!api.ok) missing.push(api.problem);
  const repository = githubRepositoryOf(repositoryUrl);
  if (repository === null)
    missing.push(
      repositoryUrl === null
        ? 'REPOSITORY_URL was not set when the site was built'
        : 'REPOSITORY_URL names no owner/repository',
    );
  if (token === '' || !api.ok || repository === null) return { target: null, missing };
  return { target: { apiUrl: api.url, repository, token }, missing: [] };
}

/**
 * Whether the review message may carry the confirm link (decisions.md: "Without `REVIEW_SIGNING_KEY` or
 * `GITHUB_TOKEN` the review message keeps the web-editor link alone"): both secrets are set.
 */
export const confirmLinkConfigured = (env: { REVIEW_SIGNING_KEY?: string; GITHUB_TOKEN?: string }): boolean =>
  Boolean(env.REVIEW_SIGNING_KEY) && Boolean(env.GITHUB_TOKEN);

/** A try's claim on its entry lasts this long: a run that died mid-try is tried again then. */
const CLAIM_LEASE_MS = 10 * 60_000;
/** At most this many entries a cron run: each try is a few requests to GitHub. */
export const COMMITS_PER_RUN = 5;
const REQUEST_TIMEOUT_MS = 10_000;

type TryOutcome =
  | { kind: 'committed'; commit: string | null; note: string | null }
  | { kind: 'failed'; failure: GithubFailure };

export type CommitResult =
  | { kind: 'committed'; id: string; commit: string | null }
  | { kind: 'failed'; id: string; attempts: number; status: number; error: string; nextAt: string }
  /** Withdrawn while its try was in flight: the file may be in git and the entry says so. */
  | { kind: 'withdrawn'; id: string; commit: string | null };

/** One request to GitHub and its JSON body (null when it has none); status 0: no answer. */
async function request(
  fetcher: typeof fetch,
  url: string,
  token: string,
  init: { method: 'GET' | 'PUT'; body?: string },
): Promise<{ status: number; headers: Headers; body: unknown; reason?: string }> {
  try {
    const response = await fetcher(url, {
      method: init.method,
      headers: {
        ...githubHeaders(token),
        ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(init.body === undefined ? {} : { body: init.body }),
      redirect: 'manual',
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const body = await response.json().catch(() => null);
    return { status: response.status, headers: response.headers, body };
  } catch (error) {
    const reason = error instanceof Error ? error.name : 'error';
    return { status: 0, headers: new Headers(), body: null, reason };
  }
}

const noAnswer = (reason: string | undefined): GithubFailure => ({
  kind: 'retry',
  status: 0,
  retryAfterSeconds: undefined,
  error: `GitHub could not be reached (${reason ?? 'no answer'})`,
});

/**
 * One try at putting `event`'s file in git: a PUT that creates it; when a file is already at the path, its text is
 * read: the same text is the commit that made it (a try whose answer was lost), a draft (`verified` not true) is
 * replaced by the confirmed file, and a verified file a person committed stands.
 */
async function tryCommit(target: GithubTarget, event: Event, fetcher: typeof fetch, now: Date): Promise<TryOutcome> {
  const path = eventFilePath(event);
  const text = serializeEventFile(event);
  const message = confirmCommitMessage(event);
  const fileUrl = contentsUrl(target.apiUrl, target.repository, path);
  const put = async (sha?: string) => {
    const answer = await request(fetcher, fileUrl, target.token, {
      method: 'PUT',
      body: putFileBody(message, text, sha),
    });
    return answer.status === 0
      ? noAnswer(answer.reason)
      : readPutAnswer(answer.status, answer.headers, answer.body, now);
  };
  const newestCommit = async (note: string | null): Promise<TryOutcome> => {
    const answer = await request(fetcher, newestCommitUrl(target.apiUrl, target.repository, path), target.token, {
      method: 'GET',
    });
    if (answer.status === 0) return { kind: 'failed', failure: noAnswer(answer.reason) };
    const found = readCommitsAnswer(answer.status, answer.headers, answer.body, now);
    return found.kind === 'found'
      ? { kind: 'committed', commit: found.commit, note }
      : { kind: 'failed', failure: found };
  };

  const created = await put();
  if (created.kind === 'committed') return { kind: 'committed', commit: created.commit, note: null };
  if (created.kind !== 'exists') return { kind: 'failed', failure: created };
  const answer = await request(fetcher, fileUrl, target.token, { method: 'GET' });
  const found =
    answer.status === 0 ? noAnswer(answer.reason) : readGetAnswer(answer.status, answer.headers, answer.body, now);
  if (found.kind === 'absent')
    return {
      kind: 'failed',
      failure: {
        kind: 'retry',
        status: created.status,
        retryAfterSeconds: undefined,
        error: 'GitHub refused the file, then had none at its path',
      },
    };
  if (found.kind !== 'file') return { kind: 'failed', failure: found };
  if (found.text === text) return newestCommit(null);
  if (!replacesFoundFile(found.text))
    return newestCommit('git already held a verified version of the file, which stands (correct it by a pull request)');
  const replaced = await put(found.sha);
  if (replaced.kind === 'committed') return { kind: 'committed', commit: replaced.commit, note: null };
  if (replaced.kind === 'exists')
    return {
      kind: 'failed',
      failure: {
        kind: 'retry',
        status: replaced.status,
        retryAfterSeconds: undefined,
        error: 'the draft file in git changed while it was replaced',
      },
    };
  return { kind: 'failed', failure: replaced };
}

interface ClaimedRow {
  id: string;
  event: string;
  git_attempts: number;
}

const CLAIM_RETURNING = 'RETURNING id, event, git_attempts';

/** Tries each claimed entry (one at a time: GitHub asks that writes to one repository not run in parallel). */
async function commitClaimed(
  db: D1Database,
  target: GithubTarget,
  claimed: readonly ClaimedRow[],
  now: Date,
  fetcher: typeof fetch,
): Promise<CommitResult[]> {
  const results: CommitResult[] = [];
  for (const row of claimed) {
    const outcome = await tryCommit(target, EventSchema.parse(JSON.parse(row.event)), fetcher, now);
    results.push(await record(db, row, outcome, now));
  }
  return results;
}

async function record(db: D1Database, row: ClaimedRow, outcome: TryOutcome, now: Date): Promise<CommitResult> {
  if (outcome.kind === 'committed') {
    const { results } = await db
      .prepare(
        `UPDATE journal SET git_state = 'committed', git_commit = ?2, git_error = ?3, git_try_until = NULL
         WHERE id = ?1 AND git_state = 'pending' RETURNING id`,
      )
      .bind(row.id, outcome.commit, outcome.note)
      .all<{ id: string }>();
    if (results.length > 0) return { kind: 'committed', id: row.id, commit: outcome.commit };
    // Withdrawn while the try was in flight: the file went to git all the same; the entry keeps where it is.
    await db
      .prepare(`UPDATE journal SET git_commit = ?2, git_error = ?3 WHERE id = ?1 AND git_state = 'cancelled'`)
      .bind(
        row.id,
        outcome.commit,
        'withdrawn while its commit was in flight: the file is in git; correct it by a pull request',
      )
      .run();
    console.warn(
      `journal: ${row.id} was withdrawn while its file was being committed; the file is in git (${outcome.commit ?? 'commit unknown'}): correct it by a pull request`,
    );
    return { kind: 'withdrawn', id: row.id, commit: outcome.commit };
  }
  const { failure } = outcome;
  const nextAt = new Date(
    now.getTime() + commitRetryMs(row.git_attempts, failure.kind === 'retry' ? failure.retryAfterSeconds : undefined),
  ).toISOString();
  await db
    .prepare(
      `UPDATE journal SET git_next_at = ?2, git_error = ?3, git_try_until = NULL WHERE id = ?1 AND git_state = 'pending'`,
    )
    .bind(row.id, nextAt, failure.error)
    .run();
  console.warn(
    `journal: the file of ${row.id} was not committed (try ${row.git_attempts}: ${failure.error}); tried again at ${nextAt}`,
  );
  return {
    kind: 'failed',
    id: row.id,
    attempts: row.git_attempts,
    status: failure.status,
    error: failure.error,
    nextAt,
  };
}

/** What the deployment lacks, said when it changes or an entry waits for it: a line every minute says nothing new. */
let lastMissing = '';

function configured(env: GitCommitBindings, repositoryUrl: string | null | undefined): GithubTarget | null {
  const { target, missing } = githubTarget(env, repositoryUrl === undefined ? REPOSITORY_URL : repositoryUrl);
  const said = missing.join('; ');
  if (target === null && said !== lastMissing)
    console.warn(`journal: confirmed events are not committed to git: ${said} (docs/deploy.md)`);
  lastMissing = said;
  return target;
}

/**
 * The first try, right after the confirm (the review page's POST runs it in `waitUntil`): commits the entry `eventId`
 * if it is pending and due. Never throws: whatever did not land is the cron's. Null when nothing was tried (not
 * configured, no such pending entry, or another run holds it).
 */
export async function commitConfirmed(
  env: GitCommitBindings,
  eventId: string,
  now: Date,
  options: GitCommitOptions = {},
): Promise<CommitResult | null> {
  const db = env.DB;
  if (db === undefined) return null;
  try {
    const target = configured(env, options.repositoryUrl);
    if (target === null) return null;
    const { results: claimed } = await db
      .prepare(
        `UPDATE journal SET git_attempts = git_attempts + 1, git_next_at = ?3, git_try_until = ?3
         WHERE id = ?1 AND git_state = 'pending' AND git_next_at <= ?2 ${CLAIM_RETURNING}`,
      )
      .bind(eventId, now.toISOString(), new Date(now.getTime() + CLAIM_LEASE_MS).toISOString())
      .all<ClaimedRow>();
    const [result] = await commitClaimed(db, target, claimed, now, options.fetcher ?? fetch);
    return result ?? null;
  } catch (error) {
    console.error(`journal: the commit of ${eventId} failed; the minute's cron tries again:`, error);
    return null;
  }
}

/**
 * The minute cron's part (functions/worker.ts): the pending entries whose next try is due, the longest waiting first,
 * at most `COMMITS_PER_RUN`. Throws when the database fails (the run's record counts it); a refused commit is not
 * the cron's failure, it is the entry's (its `git_error`, and the health's journal part).
 */
export async function runScheduledCommits(
  env: GitCommitBindings,
  now: Date,
  options: GitCommitOptions = {},
): Promise<CommitResult[]> {
  const db = env.DB;
  if (db === undefined) return [];
  const at = now.toISOString();
  const due = await db
    .prepare(`SELECT COUNT(*) AS due FROM journal WHERE git_state = 'pending' AND git_next_at <= ?1`)
    .bind(at)
    .first<{ due: number }>();
  if ((due?.due ?? 0) === 0) return [];
  const target = configured(env, options.repositoryUrl);
  if (target === null) return [];
  const { results: claimed } = await db
    .prepare(
      `UPDATE journal SET git_attempts = git_attempts + 1, git_next_at = ?2, git_try_until = ?2
       WHERE id IN (SELECT id FROM journal WHERE git_state = 'pending' AND git_next_at <= ?1
                    ORDER BY git_next_at, id LIMIT ?3) ${CLAIM_RETURNING}`,
    )
    .bind(at, new Date(now.getTime() + CLAIM_LEASE_MS).toISOString(), COMMITS_PER_RUN)
    .all<ClaimedRow>();
  return commitClaimed(db, target, claimed, now, options.fetcher ?? fetch);
}
