import { retryAfterSeconds } from '../http/retry-after.ts';
import type { Event } from '../schemas.ts';

/**
 * The GitHub REST API's repository contents endpoints, as the journal's commits use them (decisions.md, "Confirmed
 * within a minute"; docs/watch.md, "Confirm"): the requests and what each answer means, with no I/O. GitHub's
 * "Create or update file contents" (`PUT /repos/{owner}/{repo}/contents/{path}`) answers 201 for a new file and 200
 * for a replaced one, both with `commit.sha`; 422 when the file exists and no `sha` was given, 409 when the given
 * `sha` is no longer the file's; 401/403/404 when the token cannot write the repository; 429, or 403 with
 * `Retry-After` or `x-ratelimit-remaining: 0`, when a rate limit was hit; 5xx when GitHub failed.
 */

export const GITHUB_API_DEFAULT_URL = 'https://api.github.com';
export const GITHUB_API_VERSION = '2022-11-28';
export const GITHUB_USER_AGENT = 'departures-board-worker';

export interface GithubRepository {
  owner: string;
  repo: string;
}

/**
 * `owner/repo` of the repository's address (`REPOSITORY_URL`: `https://github.com/<owner>/<repo>`, a trailing
 * slash or `.git` allowed), or null when it names none.
 */
export function githubRepositoryOf(repositoryUrl: string | null): GithubRepository | null {
  if (repositoryUrl === null) return null;
  const url = URL.parse(repositoryUrl.trim());
  if (url === null || (url.protocol !== 'https:' && url.protocol !== 'http:')) return null;
  const segments = url.pathname.split('/').filter(Boolean);
  if (segments.length !== 2) return null;
  const [owner, name] = segments as [string, string];
  const repo = name.replace(/\.git$/, '');
  const part = /^[A-Za-z0-9_.-]+$/;
  return part.test(owner) && part.test(repo) && repo !== '' ? { owner, repo } : null;
}

/** Where an event's file lives in the repository. */
export const eventFilePath = (event: Pick<Event, 'provider' | 'id'>): string =>
  `content/events/${event.provider}/${event.id}.json`;

const encodedPath = (path: string) => path.split('/').map(encodeURIComponent).join('/');
const apiBase = (apiUrl: string) => apiUrl.replace(/\/+$/, '');

/** `{api}/repos/{owner}/{repo}/contents/{path}`. */
export const contentsUrl = (apiUrl: string, repository: GithubRepository, path: string): string =>
  `${apiBase(apiUrl)}/repos/${encodeURIComponent(repository.owner)}/${encodeURIComponent(repository.repo)}/contents/${encodedPath(path)}`;

/** `{api}/repos/{owner}/{repo}/commits?path={path}&per_page=1`: the newest commit of the default branch that touched `path`. */
export const newestCommitUrl = (apiUrl: string, repository: GithubRepository, path: string): string =>
  `${apiBase(apiUrl)}/repos/${encodeURIComponent(repository.owner)}/${encodeURIComponent(repository.repo)}/commits?path=${encodeURIComponent(path)}&per_page=1`;

/** The headers GitHub asks of every REST request (its "Getting started" and "API versions" pages). */
export const githubHeaders = (token: string): Record<string, string> => ({
  Authorization: `Bearer ${token}`,
  Accept: 'application/vnd.github+json',
  'X-GitHub-Api-Version': GITHUB_API_VERSION,
  'User-Agent': GITHUB_USER_AGENT,
});

/** UTF-8 text as base64, the encoding of `content` in the contents API. */
export function base64OfText(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** base64 (GitHub wraps it in lines of 60) back to UTF-8 text; null when it is not base64 of UTF-8. */
export function textOfBase64(content: string): string | null {
  try {
    const binary = atob(content.replace(/\s+/g, ''));
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (char) => char.charCodeAt(0)));
  } catch {
    return null;
  }
}

/** The commit message of a confirmed event's file. */
export const confirmCommitMessage = (event: Pick<Event, 'provider' | 'id'>): string =>
  `Confirmed ${event.provider} event ${event.id} through review\n\nCommitted by the board's worker: a reviewer confirmed the draft on its review page.`;

/** The body of the PUT: the file as base64, on the default branch; `sha` replaces the file of that blob. */
export const putFileBody = (message: string, text: string, sha?: string): string =>
  JSON.stringify({ message, content: base64OfText(text), ...(sha === undefined ? {} : { sha }) });

/** An answer that is not what was asked for, in words, and when to try again. */
export type GithubFailure =
  /** A rate limit, GitHub failing, or no answer: try again (after `retryAfterSeconds` when GitHub said). */
  | { kind: 'retry'; status: number; retryAfterSeconds: number | undefined; error: string }
  /** The token or the repository is wrong (401, 403, 404) or the request was refused: the operator must act. */
  | { kind: 'refused'; status: number; error: string };

export type PutOutcome =
  | { kind: 'committed'; commit: string }
  /** 422 or 409: a file is at the path already (or has changed since its `sha` was read). */
  | { kind: 'exists'; status: number }
  | GithubFailure;

export type GetOutcome = { kind: 'file'; sha: string; text: string } | { kind: 'absent' } | GithubFailure;

export type CommitsOutcome = { kind: 'found'; commit: string | null } | GithubFailure;

/** What an answer's headers say about a wait (`Retry-After`, or a rate limit's `x-ratelimit-reset`). */
function rateLimitWait(headers: Headers, now: Date): { limited: boolean; seconds: number | undefined } {
  const asked = retryAfterSeconds(headers.get('retry-after'), now);
  if (asked !== undefined) return { limited: true, seconds: asked };
  if (headers.get('x-ratelimit-remaining') === '0') {
    const reset = Number(headers.get('x-ratelimit-reset'));
    return {
      limited: true,
      seconds: Number.isFinite(reset) && reset > 0 ? Math.max(0, reset - now.getTime() / 1000) : undefined,
    };
  }
  return { limited: false, seconds: undefined };
}

const CONFIG_ERRORS: Readonly<Record<number, string>> = {
  401: 'GitHub refused GITHUB_TOKEN (HTTP 401): the token is wrong or expired; put a new one (docs/deploy.md)',
  403: 'GitHub refused the write (HTTP 403): GITHUB_TOKEN lacks "Contents: Read and write" on this repository',
  404: 'GitHub answered HTTP 404: REPOSITORY_URL names no repository that GITHUB_TOKEN can see',
};

/** A failure of any of the three requests, from its status and headers (never its body, never the token). */
export function failureOf(status: number, headers: Headers, now: Date): GithubFailure {
  const wait = rateLimitWait(headers, now);
  if (status === 429 || (status === 403 && wait.limited))
    return {
      kind: 'retry',
      status,
      retryAfterSeconds: wait.seconds,
      error: `GitHub's rate limit (HTTP ${status})`,
    };
  if (status >= 500 || status === 0)
    return { kind: 'retry', status, retryAfterSeconds: wait.seconds, error: `GitHub answered HTTP ${status}` };
  return { kind: 'refused', status, error: CONFIG_ERRORS[status] ?? `GitHub refused the request (HTTP ${status})` };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const FULL_SHA = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/** The answer to "Create or update file contents". `body` is its JSON, or null. */
export function readPutAnswer(status: number, headers: Headers, body: unknown, now: Date): PutOutcome {
  if (status === 200 || status === 201) {
    const commit = isObject(body) && isObject(body.commit) ? body.commit.sha : undefined;
    if (typeof commit === 'string' && FULL_SHA.test(commit)) return { kind: 'committed', commit };
    return { kind: 'retry', status, retryAfterSeconds: undefined, error: `GitHub's ${status} answer named no commit` };
  }
  if (status === 409 || status === 422) return { kind: 'exists', status };
  return failureOf(status, headers, now);
}

/** The answer to "Get repository content" for a file path. */
export function readGetAnswer(status: number, headers: Headers, body: unknown, now: Date): GetOutcome {
  if (status === 404) return { kind: 'absent' };
  if (status !== 200) return failureOf(status, headers, now);
  const text =
    isObject(body) && body.type === 'file' && body.encoding === 'base64' && typeof body.content === 'string'
      ? textOfBase64(body.content)
      : null;
  if (text === null || !isObject(body) || typeof body.sha !== 'string')
    return { kind: 'refused', status, error: 'GitHub answered with something other than a file at the path' };
  return { kind: 'file', sha: body.sha, text };
}

/** The answer to "List commits" with `path` and `per_page=1`: the newest commit that touched the file. */
export function readCommitsAnswer(status: number, headers: Headers, body: unknown, now: Date): CommitsOutcome {
  if (status !== 200) return failureOf(status, headers, now);
  const first = Array.isArray(body) ? (body[0] as unknown) : undefined;
  const sha = isObject(first) ? first.sha : undefined;
  return { kind: 'found', commit: typeof sha === 'string' && FULL_SHA.test(sha) ? sha : null };
}

/**
 * Whether a file found at the path should be replaced by the confirmed one: only a draft (`verified` not true, as
 * the drafts pull request writes it) is; a verified file a person committed stands as git's record.
 */
export function replacesFoundFile(found: string): boolean {
  try {
    const parsed = JSON.parse(found) as unknown;
    return !(isObject(parsed) && parsed.verified === true);
  } catch {
    return false;
  }
}
