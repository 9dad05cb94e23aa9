import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A repository behind GitHub's REST API, as its documentation describes the repository contents endpoints ("Create
 * or update file contents", "Get repository content") and "List commits" with `path`, not as the service's code
 * uses them: a small HTTP server on loopback, for `GITHUB_API_URL` under the loopback test switch.
 *
 * - Every request must carry `Authorization: Bearer <token>` (else 401, as GitHub answers "Bad credentials"), and the
 *   path must be one repository's (else 404 "Not Found").
 * - `PUT /repos/{owner}/{repo}/contents/{path}` with `{message, content (base64), sha?, branch?}`: a new file is
 *   201, a replaced one (its blob `sha` given) 200, both with `{content, commit}` and a fresh `commit.sha`; an
 *   existing file without `sha` is 422, a `sha` that is not the file's 409.
 * - `GET /repos/{owner}/{repo}/contents/{path}`: the file (`type`, `encoding: base64`, `content` in lines of 60,
 *   `sha`), or 404.
 * - `GET /repos/{owner}/{repo}/commits?path=…&per_page=1`: the newest commit that touched the file first.
 * - `answerNext(...answers)`: the next requests are refused with these statuses and headers instead (a 500, a 429
 *   with `Retry-After`, a 401), one each.
 */

export interface GithubRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** What this receiver answered. */
  status: number;
}

export interface StoredFile {
  text: string;
  blobSha: string;
  /** The commits that touched it, oldest first. */
  commits: { sha: string; message: string }[];
}

export interface GithubReceiver {
  origin: string;
  requests: GithubRequest[];
  /** The default branch's files by path. */
  files: Map<string, StoredFile>;
  answerNext(...answers: { status: number; headers?: Record<string, string> }[]): void;
  /** Puts a file in the repository as a person's commit would. */
  commitFile(path: string, text: string): string;
  forget(): void;
  close(): Promise<void>;
}

const blobShaOf = (text: string) => {
  const bytes = Buffer.from(text, 'utf8');
  return createHash('sha1')
    .update(Buffer.concat([Buffer.from(`blob ${bytes.length}\0`), bytes]))
    .digest('hex');
};
const newCommitSha = () => randomBytes(20).toString('hex');
const wrapped = (base64: string) => base64.replace(/(.{60})/g, '$1\n');

export async function startGithubReceiver({
  owner,
  repo,
  token,
}: {
  owner: string;
  repo: string;
  token: string;
}): Promise<GithubReceiver> {
  const requests: GithubRequest[] = [];
  const files = new Map<string, StoredFile>();
  const answers: { status: number; headers?: Record<string, string> }[] = [];
  let origin = '';

  const commitFile = (path: string, text: string, message = 'a person’s commit'): string => {
    const sha = newCommitSha();
    const previous = files.get(path);
    files.set(path, { text, blobSha: blobShaOf(text), commits: [...(previous?.commits ?? []), { sha, message }] });
    return sha;
  };
  const fileJson = (path: string, file: StoredFile) => ({
    name: path.split('/').at(-1),
    path,
    sha: file.blobSha,
    size: Buffer.byteLength(file.text),
    url: `${origin}/repos/${owner}/${repo}/contents/${path}`,
    html_url: `https://github.com/${owner}/${repo}/blob/main/${path}`,
    git_url: `${origin}/repos/${owner}/${repo}/git/blobs/${file.blobSha}`,
    download_url: `https://raw.githubusercontent.com/${owner}/${repo}/main/${path}`,
    type: 'file',
  });
  const commitJson = (sha: string, message: string) => ({
    sha,
    node_id: Buffer.from(`Commit:${sha}`).toString('base64'),
    url: `${origin}/repos/${owner}/${repo}/git/commits/${sha}`,
    html_url: `https://github.com/${owner}/${repo}/commit/${sha}`,
    author: { date: new Date().toISOString(), name: 'board', email: 'board@example.org' },
    committer: { date: new Date().toISOString(), name: 'board', email: 'board@example.org' },
    message,
    tree: { sha: newCommitSha(), url: `${origin}/repos/${owner}/${repo}/git/trees/x` },
    parents: [],
    verification: { verified: false, reason: 'unsigned', signature: null, payload: null },
  });

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const url = new URL(request.url ?? '/', 'http://receiver');
      const answer = (status: number, json: unknown, headers: Record<string, string> = {}) => {
        requests.push({
          method: request.method ?? '',
          path: url.pathname + url.search,
          headers: request.headers,
          body,
          status,
        });
        response
          .writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers })
          .end(json === undefined ? '' : JSON.stringify(json));
      };
      const forced = answers.shift();
      if (forced !== undefined) {
        answer(forced.status, { message: `answered ${forced.status} as told` }, forced.headers);
        return;
      }
      if (request.headers.authorization !== `Bearer ${token}`) {
        answer(401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest', status: '401' });
        return;
      }
      const prefix = `/repos/${owner}/${repo}/`;
      if (!url.pathname.startsWith(prefix)) {
        answer(404, { message: 'Not Found', status: '404' });
        return;
      }
      const rest = url.pathname.slice(prefix.length);
      if (request.method === 'GET' && rest === 'commits') {
        const file = files.get(url.searchParams.get('path') ?? '');
        const commits = [...(file?.commits ?? [])].reverse();
        const perPage = Number(url.searchParams.get('per_page') ?? '30');
        answer(
          200,
          commits.slice(0, perPage).map((commit) => ({ sha: commit.sha, commit: { message: commit.message } })),
        );
        return;
      }
      if (!rest.startsWith('contents/')) {
        answer(404, { message: 'Not Found', status: '404' });
        return;
      }
      const path = rest.slice('contents/'.length).split('/').map(decodeURIComponent).join('/');
      const file = files.get(path);
      if (request.method === 'GET') {
        if (file === undefined) answer(404, { message: 'Not Found', status: '404' });
        else
          answer(200, {
            ...fileJson(path, file),
            encoding: 'base64',
            content: wrapped(Buffer.from(file.text, 'utf8').toString('base64')),
          });
        return;
      }
      if (request.method !== 'PUT') {
        answer(404, { message: 'Not Found', status: '404' });
        return;
      }
      let put: { message?: unknown; content?: unknown; sha?: unknown };
      try {
        put = JSON.parse(body) as typeof put;
      } catch {
        answer(400, { message: 'Problems parsing JSON', status: '400' });
        return;
      }
      if (typeof put.message !== 'string' || typeof put.content !== 'string') {
        answer(422, { message: 'Invalid request.\n\n"message" and "content" are required.', status: '422' });
        return;
      }
      if (file !== undefined && put.sha === undefined) {
        answer(422, { message: 'Invalid request.\n\n"sha" wasn\'t supplied.', status: '422' });
        return;
      }
      if (put.sha !== undefined && put.sha !== file?.blobSha) {
        answer(409, { message: `${path} does not match ${String(put.sha)}`, status: '409' });
        return;
      }
      const text = Buffer.from(put.content, 'base64').toString('utf8');
      if (Buffer.from(text, 'utf8').toString('base64') !== put.content.replace(/\s+/g, '')) {
        answer(422, { message: 'Invalid request.\n\ncontent is not valid Base64', status: '422' });
        return;
      }
      const sha = commitFile(path, text, put.message);
      answer(file === undefined ? 201 : 200, {
        content: { ...fileJson(path, files.get(path)!), _links: {} },
        commit: commitJson(sha, put.message),
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    requests,
    files,
    answerNext: (...next) => answers.push(...next),
    commitFile: (path, text) => commitFile(path, text),
    forget() {
      requests.length = 0;
      files.clear();
      answers.length = 0;
    },
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
