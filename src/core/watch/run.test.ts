import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ClassificationRulesSchema, createClassifier } from './classify.ts';
import { FIRST_POLL, type PollState } from './poll-state.ts';
import { type FeedAnswer, pollSources, settledState } from './run.ts';
import { SourcesSchema, type WatchedSource } from './sources.ts';

/**
 * The one watch run both adapters use, over scripted feed answers: which sources are asked and with which
 * headers, what each answer means for the report and for what is remembered, and which posts become proposals.
 * The feeds over the network, files and D1 are the adapters' tests (tests/node/watch.test.ts,
 * src/server/watch/cron.test.ts, tests/watch-cron.test.ts).
 */

const classify = createClassifier(
  ClassificationRulesSchema.parse(JSON.parse(readFileSync('content/watch/classification.json', 'utf8'))),
);
const RUN_AT = new Date('2026-11-21T12:00:00.000Z');
const MINUTE = 60_000;
const minutes = (count: number) => new Date(RUN_AT.getTime() + count * MINUTE);
// Hosts under .test (RFC 2606): real sources to the watcher, which fetches all but those under .example.
const FEED = 'https://feeds.provider-a.test/@provider_a_eng.rss';
const sources = SourcesSchema.parse({
  provider_a: [
    { account: 'provider_a_eng', feed: FEED },
    { account: 'provider_a_status', feed: 'https://feeds.provider-a.test/status.rss' },
  ],
  provider_b: [{ account: 'providerb', feed: 'https://feeds.provider-b.test/@providerb.rss' }],
});
const withSample = SourcesSchema.parse({
  provider_a: [{ account: 'provider_a_eng', feed: FEED }],
  provider_c: [{ account: 'providerc_status', feed: 'https://status.provider-c.example/history.json' }],
});

const item = (id: string, title: string, date: string | null) =>
  `<item><title>${title}</title><link>https://posts.provider-a.example/@provider_a_eng/${id}</link>${date === null ? '' : `<pubDate>${date}</pubDate>`}</item>`;
const rss = (...items: string[]) =>
  `<?xml version="1.0"?><rss version="2.0"><channel><title>A</title>${items.join('')}</channel></rss>`;
const RESET = item(
  '1900000000000000001',
  'We have reset weekly usage limits for everyone.',
  'Thu, 19 Nov 2026 16:05:00 GMT',
);
const MEETUP = item(
  '1900000000000000002',
  'Thanks to everyone who came to our meetup!',
  'Wed, 18 Nov 2026 10:00:00 GMT',
);
const PROMO = item('1900000000000000003', 'Student promo: half price this week.', 'Tue, 17 Nov 2026 09:00:00 GMT');

/** A scripted feed: answers in turn, and every request's feed and headers kept. */
function scripted(...answers: FeedAnswer[]) {
  const requests: { feed: string; headers: Readonly<Record<string, string>> }[] = [];
  const fetchFeed = async (feed: string, headers: Readonly<Record<string, string>>) => {
    requests.push({ feed, headers });
    const answer = answers.shift();
    if (answer === undefined) throw new Error(`no answer scripted for ${feed}`);
    return answer;
  };
  return { fetchFeed, requests };
}

const onlyFeed = (state: PollState) => (source: WatchedSource) => (source.feed === FEED ? state : FIRST_POLL);
const oneSource = SourcesSchema.parse({ provider_a: [{ account: 'provider_a_eng', feed: FEED }] });
const fetched = (text: string, etag: string | null = '"v1"', lastModified: string | null = null): FeedAnswer => ({
  kind: 'fetched',
  text,
  etag,
  lastModified,
});

async function runOnce(state: PollState, answer: FeedAnswer | null, at = RUN_AT) {
  const feed = scripted(...(answer === null ? [] : [answer]));
  const run = await pollSources({
    sources: oneSource,
    classify,
    stateOf: onlyFeed(state),
    fetchFeed: feed.fetchFeed,
    now: at,
  });
  return { poll: run.polls[0]!, requests: feed.requests };
}

describe('a watch run', () => {
  it('asks every real source once, the samples under .example never', async () => {
    const feed = scripted(fetched(rss()), fetched(rss()), fetched(rss()));
    const run = await pollSources({
      sources,
      classify,
      stateOf: () => FIRST_POLL,
      fetchFeed: feed.fetchFeed,
      now: RUN_AT,
    });
    expect(feed.requests.map((request) => request.feed).sort()).toEqual([
      FEED,
      'https://feeds.provider-a.test/status.rss',
      'https://feeds.provider-b.test/@providerb.rss',
    ]);
    expect(run.samples).toBe(0);
    const samples = scripted(fetched(rss()));
    const sampled = await pollSources({
      sources: withSample,
      classify,
      stateOf: () => FIRST_POLL,
      fetchFeed: samples.fetchFeed,
      now: RUN_AT,
    });
    expect(samples.requests.map((request) => request.feed)).toEqual([FEED]);
    expect(sampled.samples).toBe(1);
  });

  it('proposes each relevant post as a complete draft file, and settles the irrelevant ones', async () => {
    const { poll, requests } = await runOnce(
      FIRST_POLL,
      fetched(rss(RESET, MEETUP, PROMO), '"v1"', 'Thu, 19 Nov 2026 16:06:00 GMT'),
    );
    expect(requests[0]!.headers).toEqual({});
    expect(poll.asked).toBe(true);
    expect(poll.check).toEqual({
      provider: 'provider_a',
      name: 'provider_a_eng',
      url: FEED,
      checkedAt: RUN_AT.toISOString(),
      ok: true,
      error: null,
      itemsSeen: 3,
    });
    expect(poll.proposals.map((proposal) => proposal.path)).toEqual([
      'provider_a/1900000000000000001.json',
      'provider_a/1900000000000000003.json',
    ]);
    expect(poll.proposals[0]!.file).toBe(`{
  "id": "1900000000000000001",
  "provider": "provider_a",
  "kind": "reset",
  "scope": "global",
  "announcedAt": "2026-11-19T16:05:00.000Z",
  "effectiveAt": null,
  "sourceUrl": "https://posts.provider-a.example/@provider_a_eng/1900000000000000001",
  "sourceAccount": "provider_a_eng",
  "summary": "We have reset weekly usage limits for everyone.",
  "audience": [],
  "verified": false
}
`);
    expect(poll.proposals[1]!.event.kind).toBe('promo');
    // The meetup is settled at once; the two proposals only once stored.
    expect(poll.state.seen).toEqual(['https://posts.provider-a.example/@provider_a_eng/1900000000000000002']);
    const all = new Set(poll.proposals.map((proposal) => proposal.itemKey));
    const settled = settledState(poll, all);
    expect([...settled.seen].sort()).toEqual([
      'https://posts.provider-a.example/@provider_a_eng/1900000000000000001',
      'https://posts.provider-a.example/@provider_a_eng/1900000000000000002',
      'https://posts.provider-a.example/@provider_a_eng/1900000000000000003',
    ]);
    expect(settled).toMatchObject({
      etag: '"v1"',
      lastModified: 'Thu, 19 Nov 2026 16:06:00 GMT',
      failures: 0,
      items: 3,
    });
  });

  it('asks with the last answer’s validators the next minute, and a 304 keeps the report’s count', async () => {
    const first = await runOnce(FIRST_POLL, fetched(rss(RESET, MEETUP), '"v1"', 'Thu, 19 Nov 2026 16:06:00 GMT'));
    const remembered = settledState(first.poll, new Set(first.poll.proposals.map((proposal) => proposal.itemKey)));
    const sameMinute = await runOnce(remembered, null, new Date(RUN_AT.getTime() + 59_999));
    expect(sameMinute.requests).toEqual([]);
    expect(sameMinute.poll).toMatchObject({ asked: false, check: first.poll.check, state: remembered });

    const next = await runOnce(remembered, { kind: 'unchanged', etag: null, lastModified: null }, minutes(1));
    expect(next.requests[0]!.headers).toEqual({
      'If-None-Match': '"v1"',
      'If-Modified-Since': 'Thu, 19 Nov 2026 16:06:00 GMT',
    });
    expect(next.poll.proposals).toEqual([]);
    expect(next.poll.check).toMatchObject({ ok: true, itemsSeen: 2, checkedAt: minutes(1).toISOString() });
    expect(next.poll.state).toMatchObject({ etag: '"v1"', polledAt: minutes(1).toISOString(), seen: remembered.seen });

    // The feed changed: only the post not seen before is read again.
    const changed = await runOnce(next.poll.state, fetched(rss(PROMO, RESET, MEETUP), '"v2"'), minutes(2));
    expect(changed.poll.proposals.map((proposal) => proposal.event.id)).toEqual(['1900000000000000003']);
    expect(changed.poll.check).toMatchObject({ itemsSeen: 3 });
  });

  it('backs off a failing source: not asked the next minute, then after 2, 4 … minutes', async () => {
    const first = await runOnce(FIRST_POLL, { kind: 'failed', reason: 'answered HTTP 503' });
    expect(first.poll.failure).toBe('answered HTTP 503');
    expect(first.poll.check).toMatchObject({ ok: false, error: 'answered HTTP 503', itemsSeen: 0 });
    expect(first.poll.state).toMatchObject({ failures: 1, retryAt: minutes(2).toISOString() });
    const nextMinute = await runOnce(first.poll.state, null, minutes(1));
    expect(nextMinute.requests).toEqual([]);
    expect(nextMinute.poll.check).toEqual(first.poll.check);
    const again = await runOnce(first.poll.state, { kind: 'failed', reason: 'timed out after 10000 ms' }, minutes(2));
    expect(again.poll.state).toMatchObject({ failures: 2, retryAt: minutes(6).toISOString() });
    const back = await runOnce(again.poll.state, fetched(rss(MEETUP)), minutes(6));
    expect(back.poll.state).toMatchObject({ failures: 0, retryAt: null });
    expect(back.poll.check).toMatchObject({ ok: true, error: null, itemsSeen: 1 });
  });

  it('keeps the validators across a failure, and drops them for an answer that is no feed', async () => {
    const ok = await runOnce(FIRST_POLL, fetched(rss(MEETUP), '"v1"'));
    const down = await runOnce(ok.poll.state, { kind: 'failed', reason: 'answered HTTP 500' }, minutes(1));
    expect(down.poll.state.etag).toBe('"v1"');
    const garbled = await runOnce(
      ok.poll.state,
      fetched('<rss><channel><item><title>unclosed', '"broken"'),
      minutes(1),
    );
    expect(garbled.poll.failure).toMatch(/^is not a readable feed \(/);
    expect(garbled.poll.state).toMatchObject({ etag: null, lastModified: null, failures: 1 });
  });

  it('skips a relevant post it cannot date or that is dated after the run, and reads the feed whole until it settles', async () => {
    const undated = item('777', 'Limits reset for everyone', null);
    const ahead = item('778', 'Limits reset for everyone again', 'Sat, 21 Nov 2026 12:30:00 GMT');
    const { poll } = await runOnce(FIRST_POLL, fetched(rss(undated, ahead, MEETUP), '"v1"'));
    expect(poll.proposals).toEqual([]);
    expect(poll.skipped).toEqual([
      'provider_a https://posts.provider-a.example/@provider_a_eng/777: the feed gives no publication date; add it by hand (npm run event:add) or fix the feed',
      expect.stringMatching(
        /^provider_a https:\/\/posts\.provider-a\.example\/@provider_a_eng\/778: announcedAt is in the future/,
      ),
    ]);
    const settled = settledState(poll, new Set());
    expect(settled.seen).toEqual(['https://posts.provider-a.example/@provider_a_eng/1900000000000000002']);
    expect(settled.etag).toBeNull();
  });

  it('drops the validators while a proposal could not be stored', async () => {
    const { poll } = await runOnce(FIRST_POLL, fetched(rss(RESET), '"v1"'));
    expect(settledState(poll, new Set()).etag).toBeNull();
    expect(settledState(poll, new Set()).seen).toEqual([]);
  });
});

describe('a run’s share of reading', () => {
  it('reads changed feeds up to its budget, the longest unread first, and leaves the others for the next minute', async () => {
    const three = SourcesSchema.parse({
      provider_a: ['one', 'two', 'three'].map((name) => ({
        account: name,
        feed: `https://feeds.provider-a.test/${name}.rss`,
      })),
    });
    const readAt = (iso: string | null): PollState => ({
      ...FIRST_POLL,
      lastCheck:
        iso === null
          ? null
          : { provider: 'provider_a', name: 'x', url: FEED, checkedAt: iso, ok: true, error: null, itemsSeen: 1 },
    });
    const states: Record<string, PollState> = {
      'https://feeds.provider-a.test/one.rss': readAt('2026-11-21T11:59:00.000Z'),
      'https://feeds.provider-a.test/two.rss': readAt(null),
      'https://feeds.provider-a.test/three.rss': readAt('2026-11-21T11:00:00.000Z'),
    };
    const feed = scripted(fetched(rss(MEETUP)), fetched(rss(MEETUP)), fetched(rss(MEETUP)));
    const run = await pollSources({
      sources: three,
      classify,
      stateOf: (source) => states[source.feed]!,
      fetchFeed: feed.fetchFeed,
      now: RUN_AT,
      // Room for two of the three documents, not three.
      readBudget: 2 * rss(MEETUP).length + 10,
    });
    expect(feed.requests).toHaveLength(3);
    expect(run.polls.map((poll) => [poll.source.account, poll.asked])).toEqual([
      ['one', false],
      ['two', true],
      ['three', true],
    ]);
    const deferred = run.polls[0]!;
    expect(deferred.state).toBe(states['https://feeds.provider-a.test/one.rss']);
    expect(deferred.check).toBe(deferred.state.lastCheck);
  });

  it('reads the first changed feed even when it alone is over the budget', async () => {
    const feed = scripted(fetched(rss(MEETUP, RESET)));
    const run = await pollSources({
      sources: oneSource,
      classify,
      stateOf: () => FIRST_POLL,
      fetchFeed: feed.fetchFeed,
      now: RUN_AT,
      readBudget: 10,
    });
    expect(run.polls[0]).toMatchObject({ asked: true, check: { ok: true, itemsSeen: 2 } });
  });
});
