import { spawnSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { queryLocalD1 } from '../scripts/lib/local-d1.ts';
import { startServer, type RunningServer } from '../scripts/lib/local-server.ts';
import type { Event } from '../src/core/schemas.ts';
import { rssFeed, startFeedServer, type FeedServer } from './support/feed-server.ts';
import { startPushReceiver, type PushReceiver } from './support/push-receiver.ts';
import { copyBuild } from './support/served-site.ts';
import { scaled } from '../scripts/lib/load-scaled.ts';
import { tempFolder } from './support/temp-folders.ts';

/**
 * From a post to a reviewer, served: a copy of the build whose watch configuration (`/data/watch.json`) names two
 * feeds on loopback, served by workerd with the loopback test switch on and a review channel on loopback given as
 * the secret REVIEW_WEBHOOK_URL. The cron runs through `/cdn-cgi/local/scheduled`, each run handed its minute.
 * The feed gains a post; within the next run the report shows it read, D1 holds the draft, and the review channel
 * got the message, whose one-click link holds a file that `npm run validate` accepts as it is. Polite polling too:
 * the run after sends the validators and gets 304, and the failing feed is left alone the minute after it failed.
 */

const REPOSITORY = 'https://github.com/example-owner/departures-board';
const WEBHOOK_PATH = '/api/webhooks/4242/review-token';
const MINUTE = 60_000;

let feeds: FeedServer;
let receiver: PushReceiver;
let copy: string;
let state: string;
let workspace: string;
let server: RunningServer;
let startMinute: Date;
const minutesAfterStart = (count: number) => new Date(startMinute.getTime() + count * MINUTE);

/** The cron of minute `at`, as wrangler dev runs it (its `time` is the handler's `controller.scheduledTime`). */
async function runCron(at: Date): Promise<void> {
  const response = await fetch(`${server.baseUrl}/cdn-cgi/local/scheduled?cron=*+*+*+*+*&time=${at.getTime()}`);
  expect(response.status, await response.clone().text()).toBe(200);
}

interface SourcesBody {
  checkedAt: string | null;
  state: string;
  sources: { name: string; url: string; checkedAt: string; ok: boolean; error: string | null; itemsSeen: number }[];
}
const sources = async () => (await (await fetch(`${server.baseUrl}/api/sources`)).json()) as SourcesBody;

/** A published event of the served build, from Provider A's watched account: its post is already recorded. */
let recorded: Event;
const meetup = () => ({
  link: 'https://posts.provider-a.example/@provider_a_eng/1999000000000000001',
  title: 'Thanks to everyone who came to our meetup!',
  publishedAt: minutesAfterStart(-60).toISOString(),
});
const newReset = () => ({
  link: 'https://posts.provider-a.example/@provider_a_eng/1999000000000000002',
  title: 'We have reset weekly usage limits for everyone & every plan.',
  publishedAt: minutesAfterStart(-3).toISOString(),
});
const recordedPost = () => ({ link: recorded.sourceUrl, title: recorded.summary, publishedAt: recorded.announcedAt });

beforeAll(async () => {
  startMinute = new Date(Math.floor(Date.now() / MINUTE) * MINUTE);
  feeds = await startFeedServer();
  receiver = await startPushReceiver();
  copy = tempFolder('watch-dist');
  state = tempFolder('watch-state');
  workspace = tempFolder('watch-review');
  await copyBuild(inject('builtDir'), copy);

  const eventsDir = inject('servedEventsDir');
  const files = await readdir(path.join(eventsDir, 'provider_a'));
  const events = await Promise.all(
    files.map(async (file) => JSON.parse(await readFile(path.join(eventsDir, 'provider_a', file), 'utf8')) as Event),
  );
  recorded = events.find((event) => event.verified && event.kind === 'reset')!;

  // The copy watches two feeds on loopback and links reviews to a repository; the build's stamp stays.
  const configFile = path.join(copy, 'client/data/watch.json');
  const config = JSON.parse(await readFile(configFile, 'utf8')) as Record<string, unknown>;
  config['sources'] = {
    provider_a: [
      { account: 'provider_a_eng', feed: `${feeds.origin}/provider_a_eng.rss` },
      { account: 'provider_a_status', feed: `${feeds.origin}/status.rss` },
    ],
    provider_b: [],
    provider_c: [],
  };
  config['repositoryUrl'] = REPOSITORY;
  await writeFile(configFile, JSON.stringify(config));
  feeds.serve('/provider_a_eng.rss', rssFeed([meetup(), recordedPost()]));
  feeds.fail('/status.rss', 500);

  server = await startServer({
    workerConfig: path.join(copy, 'server/wrangler.json'),
    persistTo: state,
    vars: { ALLOW_LOOPBACK_RECEIVERS: 'true' },
    secrets: { REVIEW_WEBHOOK_URL: `${receiver.origin}${WEBHOOK_PATH}` },
  });
}, scaled(240_000));

afterAll(async () => {
  await server?.stop();
  await feeds?.close();
  await receiver?.close();
});

/** `npm run validate` on a copy of the served event tree with `file` added at `relative`: its exit code and output. */
async function validateWith(relative: string, file: string) {
  const tree = await mkdtemp(path.join(workspace, 'tree-'));
  const events = path.join(tree, 'events');
  await cp(inject('servedEventsDir'), events, { recursive: true });
  await mkdir(path.dirname(path.join(events, relative)), { recursive: true });
  await writeFile(path.join(events, relative), file);
  const run = spawnSync(process.execPath, ['scripts/validate.ts'], {
    env: { ...process.env, EVENTS_DIR: events },
    encoding: 'utf8',
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe('the minute cron, from a new post to the reviewer', () => {
  it('reads every feed at the first run: nothing new (the post already recorded, a meetup), the failing feed reported', async () => {
    await runCron(startMinute);
    expect(feeds.requestsTo('/provider_a_eng.rss').map((request) => request.status)).toEqual([200]);
    expect(feeds.requestsTo('/status.rss').map((request) => request.status)).toEqual([500]);
    expect(await queryLocalD1(state, 'SELECT id FROM watch_drafts')).toEqual([]);
    expect(receiver.received).toEqual([]);
    const report = await sources();
    expect(report).toMatchObject({ checkedAt: startMinute.toISOString(), state: 'current' });
    expect(report.sources).toEqual([
      {
        provider: 'provider_a',
        name: 'provider_a_eng',
        url: `${feeds.origin}/provider_a_eng.rss`,
        checkedAt: startMinute.toISOString(),
        ok: true,
        error: null,
        itemsSeen: 2,
      },
      {
        provider: 'provider_a',
        name: 'provider_a_status',
        url: `${feeds.origin}/status.rss`,
        checkedAt: startMinute.toISOString(),
        ok: false,
        error: 'answered HTTP 500',
        itemsSeen: 0,
        // The first failure of its run: /api/sources says failing once it is over 15 minutes old.
        failingSince: startMinute.toISOString(),
      },
    ]);
  });

  it('within the next run: the new post read, its draft in D1, the reviewer told with a link whose file validates', async () => {
    feeds.serve('/provider_a_eng.rss', rssFeed([newReset(), meetup(), recordedPost()]));
    await runCron(minutesAfterStart(1));

    const [, changed] = feeds.requestsTo('/provider_a_eng.rss');
    expect(changed!.headers['if-none-match']).toBeDefined();
    expect(changed!.status).toBe(200);
    // Backoff: the feed that failed a minute ago is not asked this minute.
    expect(feeds.requestsTo('/status.rss')).toHaveLength(1);

    const report = await sources();
    expect(report.checkedAt).toBe(minutesAfterStart(1).toISOString());
    expect(report.sources.map((source) => [source.name, source.checkedAt, source.ok, source.itemsSeen])).toEqual([
      ['provider_a_eng', minutesAfterStart(1).toISOString(), true, 3],
      ['provider_a_status', startMinute.toISOString(), false, 0],
    ]);
    const board = await (await fetch(`${server.baseUrl}/`)).text();
    expect(board).toContain('1 of 2 answering, 1 failing');

    expect(await queryLocalD1(state, 'SELECT id, provider, source_url, review_state FROM watch_drafts')).toEqual([
      {
        id: '1999000000000000002',
        provider: 'provider_a',
        source_url: newReset().link,
        review_state: 'sent',
      },
    ]);

    const messages = await receiver.waitFor(1, WEBHOOK_PATH);
    expect(messages).toHaveLength(1);
    const message = JSON.parse(messages[0]!.body.toString()) as {
      content: string;
      embeds: { title: string; url: string; description: string; timestamp: string }[];
    };
    expect(message.content).toBe('New draft to review: Provider A: Reset (provider_a_eng)');
    expect(message.embeds[0]!.url).toBe(newReset().link);
    expect(message.embeds[0]!.timestamp).toBe(newReset().publishedAt);
    const links = [...message.embeds[0]!.description.matchAll(/\]\((https:\/\/[^)\s]+)\)/g)].map((match) => match[1]!);
    expect(links).toHaveLength(1);
    const link = new URL(links[0]!);
    expect(`${link.origin}${link.pathname}`).toBe(`${REPOSITORY}/new/main`);
    const filename = link.searchParams.get('filename')!;
    expect(filename).toBe('content/events/provider_a/1999000000000000002.json');
    const file = link.searchParams.get('value')!;
    expect(JSON.parse(file)).toEqual({
      id: '1999000000000000002',
      provider: 'provider_a',
      kind: 'reset',
      scope: 'global',
      announcedAt: newReset().publishedAt,
      effectiveAt: null,
      sourceUrl: newReset().link,
      sourceAccount: 'provider_a_eng',
      summary: 'We have reset weekly usage limits for everyone & every plan.',
      audience: [],
      verified: false,
    });

    // The file as the link carries it passes the project's validator, and so does it once marked verified.
    const relative = filename.slice('content/events/'.length);
    const counts = (output: string) =>
      /(\d+) valid event files \((\d+) published, (\d+) drafts/.exec(output)!.slice(1).map(Number);
    const asIs = await validateWith(relative, file);
    expect(asIs.status, asIs.output).toBe(0);
    const verified = await validateWith(relative, file.replace('"verified": false', '"verified": true'));
    expect(verified.status, verified.output).toBe(0);
    const [total, published, drafts] = counts(asIs.output);
    expect(counts(verified.output)).toEqual([total, published! + 1, drafts! - 1]);
  });

  it('asks again the minute after with the validators and gets 304; nothing is sent twice', async () => {
    await runCron(minutesAfterStart(2));
    const third = feeds.requestsTo('/provider_a_eng.rss')[2]!;
    expect(third.headers['if-none-match']).toMatch(/^"[0-9a-f]+"$/);
    expect(third.headers['if-modified-since']).toMatch(/ GMT$/);
    expect(third.status).toBe(304);
    const report = await sources();
    expect(report.sources[0]).toMatchObject({ checkedAt: minutesAfterStart(2).toISOString(), ok: true, itemsSeen: 3 });
    expect(receiver.received).toHaveLength(1);
    expect(await queryLocalD1(state, 'SELECT count(*) AS drafts FROM watch_drafts')).toEqual([{ drafts: 1 }]);
  });

  it(
    'keeps a review message the channel refuses (404) and sends it once the channel is back, at the backoff’s pace',
    async () => {
      const later = {
        link: 'https://posts.provider-a.example/@provider_a_eng/1999000000000000003',
        title: 'Usage limits are reset again for everyone.',
        publishedAt: minutesAfterStart(2).toISOString(),
      };
      feeds.serve('/provider_a_eng.rss', rssFeed([later, newReset(), meetup(), recordedPost()]));
      receiver.power.answerAll({ status: 404, body: '{"message": "Unknown Webhook", "code": 10015}' });
      const row = async () =>
        (
          await queryLocalD1(
            state,
            "SELECT review_state, review_attempts, review_next_at, review_status, review_sent_at FROM watch_drafts WHERE id = '1999000000000000003'",
          )
        )[0];
      const tries: number[] = [];
      const nextAts: unknown[] = [];
      try {
        for (let count = 3; count <= 14; count += 1) {
          if (count === 9) await receiver.power.up();
          const before = (await row())?.['review_attempts'] ?? 0;
          await runCron(minutesAfterStart(count));
          const after = await row();
          if (after!['review_attempts'] !== before) {
            tries.push(count);
            if (after!['review_state'] === 'failed') nextAts.push(after!['review_next_at']);
          }
        }
      } finally {
        await receiver.power.up();
      }
      // A try at minutes 3, 4 and 6 refused; the next at 10 (1, 2, then 4 minutes after), the channel back since 9.
      expect(tries).toEqual([3, 4, 6, 10]);
      expect(nextAts).toEqual([4, 6, 10].map((count) => minutesAfterStart(count).toISOString()));
      expect(receiver.power.turnedAway.map((request) => [request.path, request.status])).toEqual([
        [WEBHOOK_PATH, 404],
        [WEBHOOK_PATH, 404],
        [WEBHOOK_PATH, 404],
      ]);
      // Sent once: the first draft's message and this one's, nothing twice.
      expect(receiver.received.map((message) => [message.path, message.status])).toEqual([
        [WEBHOOK_PATH, 201],
        [WEBHOOK_PATH, 201],
      ]);
      expect(await row()).toEqual({
        review_state: 'sent',
        review_attempts: 4,
        review_next_at: minutesAfterStart(20).toISOString(),
        review_status: null,
        review_sent_at: minutesAfterStart(10).toISOString(),
      });
      // The worker said so, once per refused try, without the webhook's address.
      const log = server.output();
      expect(
        log.match(/the review message of draft 1999000000000000003 was not sent \(try \d: answered HTTP 404\)/g),
      ).toHaveLength(3);
      expect(log).not.toContain(WEBHOOK_PATH);
    },
    scaled(120_000),
  );
});
