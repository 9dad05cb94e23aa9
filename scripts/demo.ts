// `npm run demo`: one post's whole way (decisions.md, "Confirmed within a minute"; docs/watch.md, "From a post to
// every channel"), on this machine, with nothing but Node: a build of its own (kept under the temp folder and used
// again while the sources are unchanged), served in workerd with the loopback test switch on (in this server only,
// never `npm start`), a watched feed, the review channel, a subscriber's Discord webhook, a push service, a WebSub
// subscriber and a GitHub repository, each a small server on 127.0.0.1. It walks a post through poll, draft, review
// message, confirm (the reviewer's click, posted as the page's form), the board and each channel, printing each step
// with the seconds it took, then keeps serving until Ctrl+C (the cron run every minute), or stops with `--once`.
// `--port <n>` (or DEMO_PORT) chooses the port, 4330 by default. `--build <folder>` serves a copy of an existing
// build (an `astro build` output folder: `client/`, `server/`) instead, whatever address it was built for: the
// served test of this command (tests/demo-command.test.ts) hands it the tests' shared build, with `--port 0` (a port
// the system gives as the server binds it, printed once it serves: only with `--build`, as a build of the demo's
// own is made for its address).
import { createECDH, randomBytes } from 'node:crypto';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type ChatReceiver, startChatReceiver } from './lib/demo/chat-receiver.ts';
import {
  atOrigin,
  confirmLinkIn,
  firstSeen,
  postConfirm,
  REVIEW_WEBHOOK_PATH,
  resetPost,
  SUBSCRIBER_WEBHOOK_PATH,
  secondsSince,
  subscribeChatWebhook,
  subscribePush,
  watchLoopbackFeed,
} from './lib/demo/confirm-path.ts';
import { DEMO_DIR, demoBuild } from './lib/demo/demo-build.ts';
import { type FeedServer, rssFeed, startFeedServer } from './lib/demo/feed-server.ts';
import { type GithubReceiver, startGithubReceiver } from './lib/demo/github-receiver.ts';
import { type RecordingReceiver, startRecordingReceiver } from './lib/demo/recording-receiver.ts';
import { discover, startWebSubSubscriber, type WebSubSubscriber } from './lib/demo/websub-subscriber.ts';
import { queryLocalD1 } from './lib/local-d1.ts';
import { portIsFree, type RunningServer, startServer } from './lib/local-server.ts';

const { values } = parseArgs({
  options: { once: { type: 'boolean', default: false }, port: { type: 'string' }, build: { type: 'string' } },
});
const port = Number(values.port ?? process.env.DEMO_PORT ?? 4330);
/** The server's address; with `--port 0`, known once it serves. */
let base = `http://127.0.0.1:${port}`;
/** A repository of the demo's own: the review links name it, and its contents API is the loopback receiver. */
const DEMO_REPOSITORY_URL = 'https://github.com/demo-owner/departures-board';
const githubToken = `github_pat_demo_${randomBytes(12).toString('hex')}`;

const MINUTE = 60_000;
const started = performance.now();
let state: string | undefined;
let server: RunningServer | undefined;
const closers: (() => Promise<unknown>)[] = [];

async function stopAll(): Promise<void> {
  await server?.stop();
  await Promise.allSettled(closers.map((close) => close()));
  if (state !== undefined) await rm(state, { recursive: true, force: true });
}

/** One line of the walk: its number, what happened, and the seconds it took. */
let stepNumber = 0;
let stepStart = performance.now();
function step(what: string, detail?: string): void {
  const now = performance.now();
  stepNumber += 1;
  console.log(`${String(stepNumber).padStart(2)}. ${what.padEnd(72)} ${secondsSince(stepStart, now).padStart(6)} s`);
  if (detail !== undefined) console.log(`      ${detail}`);
  stepStart = now;
}

async function runCron(at: Date): Promise<void> {
  const response = await fetch(`${base}/cdn-cgi/local/scheduled?cron=*+*+*+*+*&time=${at.getTime()}`);
  if (response.status !== 200) throw new Error(`the cron's run answered ${response.status}`);
}

/** The titles of the Discord messages `chat` got at `webhookPath`. */
const discordTitles = (chat: ChatReceiver, webhookPath: string) =>
  chat.received
    .filter((received) => received.path === webhookPath)
    .map((received) => `“${(received.body as { embeds?: { title?: string }[] }).embeds?.[0]?.title ?? '?'}”`)
    .join(', ');

async function main(): Promise<void> {
  if (port === 0 && values.build === undefined) {
    console.error(
      "--port 0 needs --build: a build of the demo's own is made for its address. Choose a port, e.g. 4330",
    );
    process.exit(1);
  }
  if (port !== 0 && !(await portIsFree(port, '127.0.0.1'))) {
    console.error(`Port ${port} is in use on 127.0.0.1: choose another, e.g. npm run demo -- --port ${port + 1}`);
    process.exit(1);
  }
  console.log(
    `Departures Board demo: one post from a feed to every channel, on ${port === 0 ? 'a port of 127.0.0.1 the system gives' : base}\n`,
  );

  let workerConfig: string;
  if (values.build === undefined) {
    console.log(`Building the site for ${base} in ${DEMO_DIR} (about a minute, unless the last build still fits)…`);
    const made = await demoBuild(base, DEMO_REPOSITORY_URL);
    workerConfig = made.workerConfig;
    step(made.built === 'kept' ? 'build: the last one fits the sources, used again' : 'build: made', workerConfig);
  } else {
    const copy = await mkdtemp(path.join(tmpdir(), 'departures-board-demo-copy-'));
    closers.push(() => rm(copy, { recursive: true, force: true }));
    // Without the .wrangler folders a server running on that build keeps beside its files.
    await cp(values.build, copy, {
      recursive: true,
      filter: (source) => !source.split(path.sep).includes('.wrangler'),
    });
    workerConfig = path.join(copy, 'server/wrangler.json');
    step(`build: a copy of ${values.build}`, workerConfig);
  }
  const buildDir = path.dirname(path.dirname(workerConfig));
  // The repository the build links to (REPOSITORY_URL at its build): the one the worker commits to.
  const watchConfig = JSON.parse(await readFile(path.join(buildDir, 'client/data/watch.json'), 'utf8')) as {
    repositoryUrl: string | null;
  };
  const repositoryUrl = watchConfig.repositoryUrl ?? DEMO_REPOSITORY_URL;
  const [owner = '', repo = ''] = new URL(repositoryUrl).pathname.split('/').filter(Boolean);

  const [feeds, chat, push, websub, github]: [
    FeedServer,
    ChatReceiver,
    RecordingReceiver<Buffer>,
    WebSubSubscriber,
    GithubReceiver,
  ] = await Promise.all([
    startFeedServer(),
    startChatReceiver(),
    // A push service: it takes each push as Web Push services answer, `201 Created` (the payload stays encrypted).
    startRecordingReceiver({ noun: 'pushes', success: () => ({ status: 201 }), read: (body) => body }),
    startWebSubSubscriber(),
    startGithubReceiver({ owner, repo, token: githubToken }),
  ]);
  closers.push(feeds.close, chat.close, push.close, websub.close, github.close);
  const feedUrl = `${feeds.origin}/provider_a_eng.rss`;
  await watchLoopbackFeed(buildDir, feedUrl, repositoryUrl);

  state = await mkdtemp(path.join(tmpdir(), 'departures-board-demo-state-'));
  server = await startServer({
    workerConfig,
    port,
    persistTo: state,
    vars: { ALLOW_LOOPBACK_RECEIVERS: 'true' },
    secrets: {
      REVIEW_WEBHOOK_URL: `${chat.origin}${REVIEW_WEBHOOK_PATH}`,
      REVIEW_SIGNING_KEY: randomBytes(32).toString('base64url'),
      GITHUB_TOKEN: githubToken,
      GITHUB_API_URL: github.origin,
    },
  });
  base = server.baseUrl;
  step('serve: workerd answers, the loopback receivers listen', `${base}/ (state: ${state})`);

  // Each channel subscribed as people subscribe, through the public write APIs.
  await subscribeChatWebhook(base, `${chat.origin}${SUBSCRIBER_WEBHOOK_PATH}`);
  const browser = createECDH('prime256v1');
  browser.generateKeys();
  await subscribePush(base, {
    endpoint: `${push.origin}/browser`,
    keys: { p256dh: browser.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
  });
  // Discovery as a WebSub subscriber does it (§4): the hub and the topic from the feed's Link header (the build's
  // {base_url}: another address than this server's when the build was made for another).
  const feed = await discover(`${base}/feed.xml`);
  const hub = await websub.request(atOrigin(feed.hubs[0]!, base), 'subscribe', feed.self, '/feed');
  if (hub.status !== 202) throw new Error(`POST /websub answered ${hub.status}: ${await hub.text()}`);
  await websub.waitFor(() => websub.active('/feed'), 'the hub’s verification of the WebSub subscription', 60_000);
  step('subscribe: a Discord webhook, a browser’s push, WebSub to /feed.xml');

  const now = new Date();
  const id = `19${now.getTime()}`;
  const post = resetPost(id, now, 1);
  feeds.serve('/provider_a_eng.rss', rssFeed([post]));
  step('post: Provider A’s watched feed has a new post', `${feedUrl}: “${post.title}”`);

  const cronAt = Date.now();
  await runCron(new Date(Math.floor(now.getTime() / MINUTE) * MINUTE));
  step(
    'poll: the minute’s cron read the feed, kept a draft, told the reviewer',
    'GET /cdn-cgi/local/scheduled, as the Cron Trigger runs it',
  );

  const [draft] = await queryLocalD1(state, `SELECT id, review_state FROM watch_drafts WHERE id = '${id}'`);
  if (draft === undefined) throw new Error(`no draft ${id} in D1 after the cron's run`);
  console.log(`      draft: D1 holds draft ${id} (its review message ${String(draft['review_state'])})`);
  const [message] = await chat.waitFor(1, REVIEW_WEBHOOK_PATH, 60_000);
  const linkInMessage = confirmLinkIn(message!.body);
  if (linkInMessage === undefined) throw new Error('the review message carries no confirm link');
  const link = atOrigin(linkInMessage, base);
  console.log(
    `      review message: at the review channel ${((message!.at - cronAt) / 1000).toFixed(2)} s after the cron began, with the confirm link\n      ${link}`,
  );
  stepStart = performance.now();

  const page = await fetch(link);
  const html = await page.text();
  if (page.status !== 200) throw new Error(`GET of the confirm link answered ${page.status}`);
  step('review page: GET shows the draft and changes nothing');

  const confirmedAt = performance.now();
  const answer = await postConfirm(link, html);
  if (answer.status !== 303) throw new Error(`the confirm answered ${answer.status}: ${await answer.text()}`);
  step('confirm: the page’s form POSTed, as the reviewer’s click (303)');

  const shows = async (pathAndQuery: string, needle: string) => {
    const response = await fetch(`${base}${pathAndQuery}`);
    return response.status === 200 && (await response.text()).includes(needle) ? true : undefined;
  };
  const anchor = `event-${id}`;
  const outputs: [string, () => Promise<true | undefined>][] = [
    ['the board (/)', () => shows('/', post.title)],
    ['/api/status', () => shows('/api/status', `"id":"${id}"`)],
    [`/api/events/${id}`, () => shows(`/api/events/${id}`, `"id":"${id}"`)],
    ['/feed.xml', () => shows('/feed.xml', anchor)],
    ['/index.md', () => shows('/index.md', anchor)],
    [
      'Discord webhook (subscriber)',
      async () =>
        chat.received.some((m) => m.path === SUBSCRIBER_WEBHOOK_PATH && JSON.stringify(m.body).includes(anchor)) ||
        undefined,
    ],
    ['push service', async () => push.received.length > 0 || undefined],
    [
      'WebSub callback',
      async () => websub.deliveries.some((d) => d.body.toString('utf8').includes(anchor)) || undefined,
    ],
    [
      'GitHub contents API (the file committed)',
      async () => github.files.has(`content/events/provider_a/${id}.json`) || undefined,
    ],
  ];
  const seen = await Promise.all(
    outputs.map(([name, check]) =>
      firstSeen(check, name, { timeoutMs: 60_000, intervalMs: 50 }).then(
        ({ at }) => [name, secondsSince(confirmedAt, at)] as const,
        () => [name, 'never'] as const,
      ),
    ),
  );
  console.log('\n    seconds from the confirm to each:');
  for (const [name, seconds] of seen) console.log(`      ${name.padEnd(44)} ${seconds.padStart(6)}`);
  const missing = seen.filter(([, seconds]) => seconds === 'never').map(([name]) => name);

  const commit = github.files.get(`content/events/provider_a/${id}.json`)?.commits.at(-1);
  console.log(`
Open:
  the board                 ${base}/
  the event on its page     ${base}/provider_a#${anchor}
  the event as JSON         ${base}/api/events/${id}
  the review page (outcome) ${link}
  the feeds                 ${base}/feed.xml  ${base}/feed.atom  ${base}/feed.json
  the Markdown mirror       ${base}/index.md
What the receivers got: the subscriber's Discord webhook ${discordTitles(chat, SUBSCRIBER_WEBHOOK_PATH)}; ${push.received.length} push; ${websub.deliveries.length} WebSub; commit ${commit?.sha.slice(0, 7) ?? 'none'} (“${commit?.message.split('\n')[0] ?? ''}”).
Total ${secondsSince(started)} s.`);
  if (missing.length > 0) throw new Error(`never shown within a minute: ${missing.join(', ')}`);
}

try {
  await main();
} catch (error) {
  console.error(`\nThe demo stopped: ${(error as Error).message}`);
  if (server !== undefined) console.error(server.output().slice(-3000));
  await stopAll();
  process.exit(1);
}

if (values.once) {
  await stopAll();
  process.exit(0);
}

// Serving on: the cron every minute, as the Cron Trigger would (wrangler runs none by itself).
console.log('\nServing until Ctrl+C; the cron runs every minute.');
const timer = setInterval(
  () => void runCron(new Date(Math.floor(Date.now() / MINUTE) * MINUTE)).catch(() => {}),
  MINUTE,
);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
  process.on(signal, () => {
    clearInterval(timer);
    void stopAll().then(() => process.exit(0));
  });
