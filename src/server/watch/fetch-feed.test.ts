import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FeedServer, rssFeed, startFeedServer } from '../../../tests/support/feed-server.ts';
import { OUTBOUND_PROBLEM_MESSAGES, type OutboundRules, outboundAddress } from '../../core/outbound/address.ts';
import { fetchFeed, type RedirectCheck } from './fetch-feed.ts';

/**
 * The feed fetcher's redirects against real HTTP servers on loopback (tests/support/feed-server.ts): each hop is
 * judged by the check the worker hands in (the outbound-address policy) before it is requested, at most three are
 * followed, and the conditional headers still earn a 304. Expected reasons and requests are written by hand.
 */

const LIMITS = { timeoutMs: 5_000, maxBytes: 1024 * 1024 };
const FEED = rssFeed([{ link: 'https://posts.example/1', title: 'Limits reset', publishedAt: '2026-06-01T00:00:00Z' }]);

/** What the worker's cron hands in: the outbound policy, with or without the loopback test switch. */
const policy =
  (rules: OutboundRules): RedirectCheck =>
  (target) => {
    const hop = outboundAddress(target, rules);
    return hop.ok ? hop : { ok: false, reason: OUTBOUND_PROBLEM_MESSAGES[hop.problem] };
  };
const LOOPBACK_ON = policy({ allowLoopbackReceiver: true });
const LOOPBACK_OFF = policy({ allowLoopbackReceiver: false });

let feeds: FeedServer;
/** A second host: where a redirect would lead if it were followed. */
let elsewhere: FeedServer;

beforeAll(async () => {
  feeds = await startFeedServer();
  elsewhere = await startFeedServer();
});
afterAll(async () => {
  await feeds.close();
  await elsewhere.close();
});
beforeEach(() => {
  feeds.requests.length = 0;
  elsewhere.requests.length = 0;
  feeds.serve('/feed.rss', FEED);
  elsewhere.serve('/feed.rss', FEED);
});

const paths = (server: FeedServer) => server.requests.map((request) => `${request.status} ${request.path}`);

describe('fetchFeed follows redirects by hand', () => {
  it.each([301, 302, 303, 307, 308])('follows a %i to the feed', async (status) => {
    feeds.redirect('/old.rss', '/feed.rss', status);
    const answer = await fetchFeed(`${feeds.origin}/old.rss`, {}, LIMITS, LOOPBACK_ON);
    expect(answer).toMatchObject({ kind: 'fetched', text: FEED });
    expect(paths(feeds)).toEqual([`${status} /old.rss`, '200 /feed.rss']);
  });

  it('resolves a relative Location against the URL that answered it, hop after hop', async () => {
    feeds.redirect('/a/b/start', 'next');
    feeds.redirect('/a/b/next', '../up');
    feeds.redirect('/a/up', `${feeds.origin}/feed.rss`);
    const answer = await fetchFeed(`${feeds.origin}/a/b/start`, {}, LIMITS, LOOPBACK_ON);
    expect(answer.kind).toBe('fetched');
    expect(paths(feeds)).toEqual(['302 /a/b/start', '302 /a/b/next', '302 /a/up', '200 /feed.rss']);
  });

  it('follows three redirects and refuses the fourth, which it does not request', async () => {
    feeds.redirect('/r4', '/r3');
    feeds.redirect('/r3', '/r2');
    feeds.redirect('/r2', '/r1');
    feeds.redirect('/r1', '/feed.rss');
    expect((await fetchFeed(`${feeds.origin}/r3`, {}, LIMITS, LOOPBACK_ON)).kind).toBe('fetched');
    expect(paths(feeds)).toEqual(['302 /r3', '302 /r2', '302 /r1', '200 /feed.rss']);

    feeds.requests.length = 0;
    expect(await fetchFeed(`${feeds.origin}/r4`, {}, LIMITS, LOOPBACK_ON)).toEqual({
      kind: 'failed',
      reason: 'is redirected more than 3 times (the watcher follows at most 3)',
    });
    expect(paths(feeds)).toEqual(['302 /r4', '302 /r3', '302 /r2', '302 /r1']);
  });

  it('gives up on a redirect loop after three hops', async () => {
    feeds.redirect('/loop', '/loop', 301);
    const answer = await fetchFeed(`${feeds.origin}/loop`, {}, LIMITS, LOOPBACK_ON);
    expect(answer).toEqual({
      kind: 'failed',
      reason: 'is redirected more than 3 times (the watcher follows at most 3)',
    });
    expect(paths(feeds)).toEqual(['301 /loop', '301 /loop', '301 /loop', '301 /loop']);
  });

  it('drops a fragment of the Location (the policy refuses one in an address): it never leaves the client', async () => {
    feeds.redirect('/old.rss', '/feed.rss#latest');
    expect((await fetchFeed(`${feeds.origin}/old.rss`, {}, LIMITS, LOOPBACK_ON)).kind).toBe('fetched');
    expect(paths(feeds)).toEqual(['302 /old.rss', '200 /feed.rss']);
  });

  it('fails a redirect without a Location, or with one that is no URL', async () => {
    feeds.fail('/moved', 302);
    expect(await fetchFeed(`${feeds.origin}/moved`, {}, LIMITS, LOOPBACK_ON)).toEqual({
      kind: 'failed',
      reason: 'answered HTTP 302 without a Location that is a URL',
    });
    feeds.redirect('/bad', 'http://[::1');
    expect(await fetchFeed(`${feeds.origin}/bad`, {}, LIMITS, LOOPBACK_ON)).toEqual({
      kind: 'failed',
      reason: 'answered HTTP 302 without a Location that is a URL',
    });
  });

  it('sends the conditional headers to every hop, so that a feed that moved still answers 304', async () => {
    feeds.redirect('/old.rss', '/feed.rss', 301);
    const first = await fetchFeed(`${feeds.origin}/old.rss`, {}, LIMITS, LOOPBACK_ON);
    if (first.kind !== 'fetched') throw new Error(`expected the feed, got ${JSON.stringify(first)}`);
    expect(first.etag).toMatch(/^"[0-9a-f]{16}"$/);
    feeds.requests.length = 0;

    const validators = { 'If-None-Match': first.etag!, 'If-Modified-Since': first.lastModified! };
    const second = await fetchFeed(`${feeds.origin}/old.rss`, validators, LIMITS, LOOPBACK_ON);
    expect(second).toEqual({ kind: 'unchanged', etag: first.etag, lastModified: first.lastModified });
    expect(paths(feeds)).toEqual(['301 /old.rss', '304 /feed.rss']);
    expect(feeds.requests.map((request) => request.headers['if-none-match'])).toEqual([first.etag, first.etag]);
  });
});

describe('fetchFeed never requests a hop the check refuses', () => {
  it('a redirect to another address on this machine while the loopback switch is off', async () => {
    feeds.redirect('/old.rss', `${elsewhere.origin}/feed.rss`);
    expect(await fetchFeed(`${feeds.origin}/old.rss`, {}, LIMITS, LOOPBACK_OFF)).toEqual({
      kind: 'failed',
      reason:
        'is redirected to an address the outbound policy refuses (redirect 1 of at most 3): the target must be an https URL',
    });
    expect(elsewhere.requests).toEqual([]);
    expect(paths(feeds)).toEqual(['302 /old.rss']);
  });

  it('the same redirect is followed under the loopback switch, as the cron passes it in the tests', async () => {
    feeds.redirect('/old.rss', `${elsewhere.origin}/feed.rss`);
    expect((await fetchFeed(`${feeds.origin}/old.rss`, {}, LIMITS, LOOPBACK_ON)).kind).toBe('fetched');
    expect(paths(elsewhere)).toEqual(['200 /feed.rss']);
  });

  it.each([
    ['http://169.254.169.254/latest/meta-data/', 'must be an https URL'],
    ['https://169.254.169.254/latest/meta-data/', 'must name its host, not an IP address'],
    ['https://10.0.0.1/feed.rss', 'must name its host, not an IP address'],
    ['https://[::1]/feed.rss', 'must name its host, not an IP address'],
    ['https://0x7f.1/feed.rss', 'must name its host, not an IP address'],
    [
      'https://metadata.google.internal/computeMetadata/v1/',
      'must be a public host, not a local, loopback or private name',
    ],
    ['https://localhost/feed.rss', 'must be a public host, not a local, loopback or private name'],
    ['https://feeds.example.com:8443/feed.rss', 'must use the https port, 443 (leave the port out)'],
    ['https://user:pass@feeds.example.com/feed.rss', 'must not carry a user name or password'],
    ['file:///etc/passwd', 'must be an https URL'],
    ['http://127.0.0.1/feed.rss', 'must be an https URL'],
  ])('a redirect to %s, even under the loopback switch', async (location, rule) => {
    feeds.redirect('/old.rss', location, 307);
    expect(await fetchFeed(`${feeds.origin}/old.rss`, {}, LIMITS, LOOPBACK_ON)).toEqual({
      kind: 'failed',
      reason: `is redirected to an address the outbound policy refuses (redirect 1 of at most 3): the target ${rule}`,
    });
    expect(paths(feeds)).toEqual(['307 /old.rss']);
  });

  it('a refused third hop, after two allowed ones: the refused one is never requested', async () => {
    feeds.redirect('/r1', '/r2');
    feeds.redirect('/r2', `${elsewhere.origin}/r3`);
    elsewhere.redirect('/r3', 'https://192.168.1.1/feed.rss');
    expect(await fetchFeed(`${feeds.origin}/r1`, {}, LIMITS, LOOPBACK_ON)).toEqual({
      kind: 'failed',
      reason:
        'is redirected to an address the outbound policy refuses (redirect 3 of at most 3): the target must name its host, not an IP address',
    });
    expect(paths(feeds)).toEqual(['302 /r1', '302 /r2']);
    expect(paths(elsewhere)).toEqual(['302 /r3']);
  });

  it('without a check (npm run watch, which may read a local feed bridge) only the count holds', async () => {
    feeds.redirect('/old.rss', `${elsewhere.origin}/feed.rss`);
    expect((await fetchFeed(`${feeds.origin}/old.rss`, {}, LIMITS)).kind).toBe('fetched');
    expect(paths(elsewhere)).toEqual(['200 /feed.rss']);
  });
});
