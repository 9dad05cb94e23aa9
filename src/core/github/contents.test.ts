import { describe, expect, it } from 'vitest';
import { makeEvent } from '../test-events.ts';
import { COMMIT_RETRY_MAX_MS, commitRetryMs } from './commit-retry.ts';
import {
  base64OfText,
  contentsUrl,
  eventFilePath,
  githubHeaders,
  githubRepositoryOf,
  newestCommitUrl,
  putFileBody,
  readCommitsAnswer,
  readGetAnswer,
  readPutAnswer,
  replacesFoundFile,
  textOfBase64,
} from './contents.ts';

const NOW = new Date('2026-06-15T12:00:00.000Z');
const SHA = '7638417db6d59f3c431d3e1f261cc637155684cd';
const none = new Headers();

describe('the repository of REPOSITORY_URL', () => {
  it('is the owner and name of the address, with or without a trailing slash or .git', () => {
    for (const url of [
      'https://github.com/owner/board',
      'https://github.com/owner/board/',
      'https://github.com/owner/board.git',
    ])
      expect(githubRepositoryOf(url)).toEqual({ owner: 'owner', repo: 'board' });
  });

  it('is none for an address that names no repository', () => {
    for (const url of [null, 'https://github.com/owner', 'https://github.com/owner/board/tree/main', 'not a url'])
      expect(githubRepositoryOf(url)).toBeNull();
  });
});

describe('the requests', () => {
  const repository = { owner: 'owner', repo: 'board' };

  it('PUT the event file at its path in the tree', () => {
    const event = makeEvent({ id: 'abc_1', provider: 'provider_b' });
    expect(eventFilePath(event)).toBe('content/events/provider_b/abc_1.json');
    expect(contentsUrl('https://api.github.com/', repository, eventFilePath(event))).toBe(
      'https://api.github.com/repos/owner/board/contents/content/events/provider_b/abc_1.json',
    );
    expect(newestCommitUrl('https://api.github.com', repository, 'content/events/provider_b/abc_1.json')).toBe(
      'https://api.github.com/repos/owner/board/commits?path=content%2Fevents%2Fprovider_b%2Fabc_1.json&per_page=1',
    );
  });

  it('carry the token, the media type, the API version and a User-Agent', () => {
    const headers = githubHeaders('tok');
    expect(headers.Authorization).toBe('Bearer tok');
    expect(headers.Accept).toBe('application/vnd.github+json');
    expect(headers['X-GitHub-Api-Version']).toBe('2022-11-28');
    expect(headers['User-Agent']).toMatch(/\S/);
  });

  it('send the file as base64 of its UTF-8 bytes, with the sha only to replace a file', () => {
    const text = '{\n  "summary": "重置 — ok"\n}\n';
    const body = JSON.parse(putFileBody('why', text)) as Record<string, unknown>;
    expect(body).toEqual({ message: 'why', content: base64OfText(text) });
    expect(Buffer.from(body.content as string, 'base64').toString('utf8')).toBe(text);
    expect(JSON.parse(putFileBody('why', text, 'blob'))).toMatchObject({ sha: 'blob' });
    // GitHub's answers wrap the base64 in lines.
    const wrapped = base64OfText(text).replace(/(.{8})/g, '$1\n');
    expect(textOfBase64(wrapped)).toBe(text);
    expect(textOfBase64('%%%')).toBeNull();
  });
});

describe('the answers', () => {
  it('201 and 200 are a commit, by its sha', () => {
    expect(readPutAnswer(201, none, { content: {}, commit: { sha: SHA } }, NOW)).toEqual({
      kind: 'committed',
      commit: SHA,
    });
    expect(readPutAnswer(200, none, { commit: { sha: SHA } }, NOW)).toEqual({ kind: 'committed', commit: SHA });
    expect(readPutAnswer(201, none, { commit: {} }, NOW).kind).toBe('retry');
  });

  it('422 and 409 say a file is there already', () => {
    expect(readPutAnswer(422, none, { message: 'Invalid request.' }, NOW)).toEqual({ kind: 'exists', status: 422 });
    expect(readPutAnswer(409, none, null, NOW)).toEqual({ kind: 'exists', status: 409 });
  });

  it('401, 403 and 404 are the configuration, said in words without the token', () => {
    for (const status of [401, 403, 404]) {
      const outcome = readPutAnswer(status, none, null, NOW);
      expect(outcome.kind).toBe('refused');
      if (outcome.kind === 'refused') expect(outcome.error).toContain(String(status));
    }
    const unauthorized = readPutAnswer(401, none, null, NOW);
    expect(unauthorized.kind === 'refused' && unauthorized.error).toContain('GITHUB_TOKEN');
  });

  it('429, a rate-limited 403 and 5xx are tried again, after the wait GitHub asked for', () => {
    expect(readPutAnswer(429, new Headers({ 'Retry-After': '120' }), null, NOW)).toMatchObject({
      kind: 'retry',
      retryAfterSeconds: 120,
    });
    expect(readPutAnswer(403, new Headers({ 'Retry-After': '60' }), null, NOW)).toMatchObject({ kind: 'retry' });
    const reset = String(NOW.getTime() / 1000 + 300);
    expect(
      readPutAnswer(403, new Headers({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset }), null, NOW),
    ).toMatchObject({ kind: 'retry', retryAfterSeconds: 300 });
    expect(readPutAnswer(503, none, null, NOW)).toMatchObject({ kind: 'retry', retryAfterSeconds: undefined });
  });

  it('a file read back is its text and blob sha; 404 is no file', () => {
    const text = '{"verified": false}\n';
    expect(
      readGetAnswer(200, none, { type: 'file', encoding: 'base64', content: base64OfText(text), sha: 'b1' }, NOW),
    ).toEqual({ kind: 'file', sha: 'b1', text });
    expect(readGetAnswer(404, none, null, NOW)).toEqual({ kind: 'absent' });
    expect(readGetAnswer(200, none, [{ type: 'file' }], NOW).kind).toBe('refused');
  });

  it('the newest commit of a path is the first of the list', () => {
    expect(readCommitsAnswer(200, none, [{ sha: SHA }, { sha: 'f'.repeat(40) }], NOW)).toEqual({
      kind: 'found',
      commit: SHA,
    });
    expect(readCommitsAnswer(200, none, [], NOW)).toEqual({ kind: 'found', commit: null });
    expect(readCommitsAnswer(502, none, null, NOW).kind).toBe('retry');
  });

  it('a draft found at the path is replaced; a verified file stands', () => {
    expect(replacesFoundFile('{"verified": false}')).toBe(true);
    expect(replacesFoundFile('{"verified": true}')).toBe(false);
    expect(replacesFoundFile('not json')).toBe(false);
  });
});

describe('the retries of a commit', () => {
  it('double from a minute up to 30 minutes, and stay there', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 40].map((failures) => commitRetryMs(failures) / 60_000)).toEqual([
      1, 2, 4, 8, 16, 30, 30, 30,
    ]);
  });

  it('honour a Retry-After, within a minute and 30 minutes', () => {
    expect(commitRetryMs(1, 300)).toBe(300_000);
    expect(commitRetryMs(1, 5)).toBe(60_000);
    expect(commitRetryMs(1, 86_400)).toBe(COMMIT_RETRY_MAX_MS);
  });
});
