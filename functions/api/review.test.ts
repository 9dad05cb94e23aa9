import { createHash, createHmac } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { fixtureFiles } from '../../scripts/lib/built-files.ts';
import { edgeApp } from '../../scripts/lib/edge-app.ts';
import type { Event } from '../../src/core/schemas.ts';
import type { EdgeBindings } from '../../src/server/context.ts';
import { forgetLoadedData } from '../../src/server/data-source.ts';
import { withCommonHeaders } from '../../src/server/http/cors.ts';
import { storedDraftKeys } from '../../src/server/watch/store.ts';
import { REAL_D1, stateDatabaseForFile } from '../../tests/support/state-d1.ts';
import { answerEdgeRoute } from '../app.ts';

/**
 * The review page in-process, over a real local D1 with the repository's migrations (decisions.md, "Confirmed within
 * a minute"; docs/watch.md, "The review page"). Tokens are made here with Node's own HMAC over the documented text
 * (`review\n<draft id>\n<expiry seconds>`), the expected words are written out, and each outcome is read back from
 * the tables themselves.
 */

const KEY = 'the review signing key of this test';
const ORIGIN = 'http://localhost:4321';
const NOW = new Date('2026-06-15T12:00:00.000Z');
const DAY_SECONDS = 86_400;
const ID = '1900000000000000103';
const SOURCE_URL = `https://social.example/@provider_a/${ID}`;
const DRAFT: Event = {
  id: ID,
  provider: 'provider_a',
  kind: 'reset',
  scope: 'global',
  announcedAt: '2026-06-15T11:58:00.000Z',
  effectiveAt: null,
  sourceUrl: SOURCE_URL,
  sourceAccount: '@provider_a',
  summary: 'Limits reset for everyone <script>alert(1)</script> & more',
  audience: [],
  verified: false,
};

const state = stateDatabaseForFile();
// Each test's built files are read afresh (the edge keeps a data file per isolate).
beforeEach(() => forgetLoadedData());
const files = fixtureFiles([], NOW);

const tokenFor = (id: string, expirySeconds: number, key = KEY) =>
  `${expirySeconds}.${createHmac('sha256', key).update(`review\n${id}\n${expirySeconds}`).digest('base64url')}`;
const nowSeconds = Math.floor(NOW.getTime() / 1000);
const TOKEN = tokenFor(ID, nowSeconds + DAY_SECONDS);
const EXPIRED = tokenFor(ID, nowSeconds - 60);

/** The bindings of a configured deployment, less the ones named. */
function env(without: readonly ('DB' | 'REVIEW_SIGNING_KEY')[] = [], built = files): EdgeBindings {
  const bindings: EdgeBindings = { ...edgeApp(built).env, DB: state.db, REVIEW_SIGNING_KEY: KEY };
  for (const name of without) delete bindings[name];
  return bindings;
}

async function request(path: string, init: RequestInit = {}, bindings = env(), now = NOW): Promise<Response> {
  const response = await answerEdgeRoute(new Request(new URL(path, ORIGIN), init), bindings, now);
  if (response === undefined) throw new Error(`${path} was handed to the pages`);
  return response;
}

const pagePath = (token = TOKEN, id = ID) => `/review/${id}?${new URLSearchParams({ t: token })}`;

function post(fields: Record<string, string>, headers: Record<string, string> = {}, bindings = env(), now = NOW) {
  return request(
    `/review/${ID}`,
    {
      method: 'POST',
      // A header given as '' is left out (a form sent without Origin).
      headers: Object.entries({
        'Content-Type': 'application/x-www-form-urlencoded',
        Origin: ORIGIN,
        ...headers,
      }).filter(([, value]) => value !== ''),
      body: new URLSearchParams(fields).toString(),
    },
    bindings,
    now,
  );
}

async function storeDraft(event: Event = DRAFT): Promise<void> {
  await state.db
    .prepare(
      `INSERT INTO watch_drafts (id, provider, source_url, file, found_at, review_state, review_next_at)
       VALUES (?1, ?2, ?3, ?4, ?5, 'sent', ?5)`,
    )
    .bind(event.id, event.provider, event.sourceUrl, `${JSON.stringify(event, null, 2)}\n`, NOW.toISOString())
    .run();
}

/** Every row the page could touch, as text: equal before and after means nothing changed. */
async function snapshot(): Promise<string> {
  const tables = ['watch_drafts', 'journal', 'notifications', 'deliveries'];
  const rows = await Promise.all(
    tables.map(async (table) => (await state.db.prepare(`SELECT * FROM ${table} ORDER BY 1`).all()).results),
  );
  return JSON.stringify(rows);
}

const draftRow = () =>
  state.db
    .prepare('SELECT source_url, decision, decided_at FROM watch_drafts WHERE id = ?1')
    .bind(ID)
    .first<{ source_url: string; decision: string | null; decided_at: string | null }>();
const journalRow = () =>
  state.db
    .prepare('SELECT event, state, git_state FROM journal WHERE id = ?1')
    .bind(ID)
    .first<{ event: string; state: string; git_state: string }>();

const confirmForm = (edits: Record<string, string> = {}) => ({
  t: TOKEN,
  action: 'confirm',
  kind: 'reset',
  scope: 'global',
  effectiveAt: '',
  ...edits,
});

describe('GET /review/<draft id>', REAL_D1, () => {
  it('shows the draft beside its original post, every field, the form; and changes nothing', async () => {
    await storeDraft();
    const before = await snapshot();
    const response = await request(pagePath());
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('Cache-Control')).toBe('no-store');
    expect(response.headers.get('X-Robots-Tag')).toBe('noindex');
    expect(response.headers.get('Referrer-Policy')).toBe('no-referrer');
    const html = await response.text();
    expect(html).toContain('<h1>Review a draft</h1>');
    expect(html).toContain(`<a href="${SOURCE_URL}" rel="noreferrer noopener">Open the original post</a>`);
    // The post's text is text: escaped, never markup.
    expect(html).toContain('Limits reset for everyone &lt;script&gt;alert(1)&lt;/script&gt; &amp; more');
    expect(html).not.toContain('<script');
    for (const field of ['id', 'provider', 'kind', 'scope', 'announcedAt', 'effectiveAt', 'sourceAccount', 'audience'])
      expect(html, field).toContain(`(${field})`);
    expect(html).toContain('<select id="kind" name="kind"');
    expect(html).toContain('<option value="reset" selected>');
    expect(html).toContain('<input id="scope" name="scope" value="global"');
    expect(html).toContain('<input id="effectiveAt" name="effectiveAt" value=""');
    expect(html).toContain(`<form method="post" action="/review/${ID}">`);
    expect(html).toContain(`<input type="hidden" name="t" value="${TOKEN}">`);
    expect(html).toContain('name="action" value="confirm"');
    expect(html).toContain('name="action" value="reject"');
    expect(html).not.toContain('<script');
    // Twice, and as HEAD: still nothing changed.
    await request(pagePath(), { method: 'HEAD' });
    await request(pagePath());
    expect(await snapshot()).toBe(before);
  });

  it('keeps its own referrer policy and a style allowed by hash alone through the worker’s common headers', async () => {
    await storeDraft();
    const response = withCommonHeaders(await request(pagePath()));
    expect(response.headers.get('Referrer-Policy')).toBe('no-referrer');
    const policy = response.headers.get('Content-Security-Policy') ?? '';
    const style = /<style>([^<]*)<\/style>/.exec(await response.text())![1]!;
    expect(policy).toContain(`style-src 'sha256-${createHash('sha256').update(style).digest('base64')}'`);
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).toContain("default-src 'none'");
  });

  it('is in Chinese for lang=zh or a browser that asks for it, with a link to the other language', async () => {
    await storeDraft();
    const byQuery = await (await request(`${pagePath()}&lang=zh`)).text();
    expect(byQuery).toContain('<html lang="zh-Hans">');
    expect(byQuery).toContain('<h1>审核草稿</h1>');
    expect(byQuery).toContain('<input type="hidden" name="lang" value="zh">');
    expect(byQuery).toContain(`href="/review/${ID}?t=${encodeURIComponent(TOKEN)}&amp;lang=en" lang="en">English</a>`);
    const byBrowser = await (
      await request(pagePath(), { headers: { 'Accept-Language': 'it;q=0.9, zh-CN;q=0.8, en;q=0.5' } })
    ).text();
    expect(byBrowser).toContain('<h1>审核草稿</h1>');
    const english = await (await request(pagePath(), { headers: { 'Accept-Language': 'en-GB, zh;q=0.9' } })).text();
    expect(english).toContain('<h1>Review a draft</h1>');
    expect(english).toContain('lang="zh-Hans">中文</a>');
  });

  it('refuses a wrong or expired token 403, saying which and what to do, and changes nothing', async () => {
    await storeDraft();
    const before = await snapshot();
    for (const token of [
      tokenFor(ID, nowSeconds + DAY_SECONDS, 'another key'),
      tokenFor('1900000000000000104', nowSeconds + DAY_SECONDS),
      `${nowSeconds + 2 * DAY_SECONDS}.${TOKEN.split('.')[1]}`,
      'nonsense',
      '',
    ]) {
      const response = await request(pagePath(token));
      expect(response.status, token).toBe(403);
      const html = await response.text();
      expect(html).toContain('<h1>This link is not valid</h1>');
      expect(html).toContain('Open the link from the review message again, whole.');
    }
    const expired = await request(pagePath(EXPIRED));
    expect(expired.status).toBe(403);
    const html = await expired.text();
    expect(html).toContain('<h1>This link has expired</h1>');
    expect(html).toContain('Review links last 24 hours.');
    // The link made a day ago expires at this very second.
    expect((await request(pagePath(tokenFor(ID, nowSeconds)))).status).toBe(403);
    expect(await snapshot()).toBe(before);
  });

  it('is 404 for an unknown draft, 404 without REVIEW_SIGNING_KEY, 503 without the database: each a page', async () => {
    const unknown = await request(
      pagePath(tokenFor('1900000000000000999', nowSeconds + DAY_SECONDS), '1900000000000000999'),
    );
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('<h1>No such draft</h1>');
    const off = await request(pagePath(), {}, env(['REVIEW_SIGNING_KEY']));
    expect(off.status).toBe(404);
    expect(await off.text()).toContain('This deployment has no REVIEW_SIGNING_KEY');
    const noDatabase = await request(pagePath(), {}, env(['DB']));
    expect(noDatabase.status).toBe(503);
    expect(await noDatabase.text()).toContain('<h1>Not available now</h1>');
    expect(noDatabase.headers.get('Cache-Control')).toBe('no-store');
  });
});

describe('POST /review/<draft id>', REAL_D1, () => {
  it('confirms the edited event: 303 to the page, the journal holds it verified, and the page says so', async () => {
    await storeDraft();
    const response = await post(
      confirmForm({ kind: 'banked', scope: 'plan:pro', effectiveAt: '2026-06-16T00:00:00.000Z' }),
    );
    expect(response.status).toBe(303);
    expect(response.headers.get('Cache-Control')).toBe('no-store');
    const location = response.headers.get('Location')!;
    expect(location).toBe(`/review/${ID}?t=${encodeURIComponent(TOKEN)}&lang=en`);
    const entry = await journalRow();
    expect(entry).toMatchObject({ state: 'live', git_state: 'pending' });
    expect(JSON.parse(entry!.event)).toEqual({
      ...DRAFT,
      kind: 'banked',
      scope: 'plan:pro',
      effectiveAt: '2026-06-16T00:00:00.000Z',
      verified: true,
    });
    expect(await draftRow()).toEqual({ source_url: SOURCE_URL, decision: 'confirmed', decided_at: NOW.toISOString() });

    const before = await snapshot();
    const outcome = await request(location);
    expect(outcome.status).toBe(200);
    const html = await outcome.text();
    expect(html).toContain('Confirmed: published; it reaches git next.');
    expect(html).toContain(`<a href="/provider_a#event-${ID}">`);
    expect(html).toContain(`<a href="/api/events/${ID}">`);
    expect(html).toContain('name="action" value="withdraw"');
    expect(await snapshot()).toBe(before);
  });

  it('takes a field the form leaves out as the draft’s own', async () => {
    await storeDraft({ ...DRAFT, effectiveAt: '2026-06-16T00:00:00.000Z' });
    expect((await post({ t: TOKEN, action: 'confirm', scope: 'plan:team' })).status).toBe(303);
    expect(JSON.parse((await journalRow())!.event)).toMatchObject({
      kind: 'reset',
      scope: 'plan:team',
      effectiveAt: '2026-06-16T00:00:00.000Z',
      verified: true,
    });
  });

  it('shows the field errors with the form kept (400) and changes nothing for an invalid edit', async () => {
    await storeDraft();
    const before = await snapshot();
    const response = await post(confirmForm({ scope: 'Plan "Pro"', effectiveAt: 'tomorrow' }));
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain('The edited event is not valid, and nothing was changed.');
    expect(html).toContain('must be &quot;global&quot; or &quot;plan:&lt;plan_name&gt;&quot;');
    expect(html).toContain('must be an ISO 8601 UTC time with milliseconds');
    expect(html).toContain('<input id="scope" name="scope" value="Plan &quot;Pro&quot;"');
    expect(html).toContain('<input id="effectiveAt" name="effectiveAt" value="tomorrow"');
    expect(html).toContain('aria-invalid="true" aria-describedby="scope-error"');
    expect(await snapshot()).toBe(before);
  });

  it('rejects: the post is never proposed again, and the used token decides nothing more', async () => {
    await storeDraft();
    const response = await post({ t: TOKEN, action: 'reject', lang: 'zh' });
    expect(response.status).toBe(303);
    expect(response.headers.get('Location')).toBe(`/review/${ID}?t=${encodeURIComponent(TOKEN)}&lang=zh`);
    // The watcher's stored draft keeps its post's address: a new proposal of the same post is known.
    expect(await draftRow()).toEqual({ source_url: SOURCE_URL, decision: 'rejected', decided_at: NOW.toISOString() });
    const proposal = { event: { ...DRAFT, id: '1900000000000000999' } } as Parameters<
      typeof storedDraftKeys
    >[1][number];
    expect((await storedDraftKeys(state.db, [proposal])).sourceUrls).toEqual(new Set([SOURCE_URL]));
    expect(await journalRow()).toBeNull();
    expect(await (await request(`${pagePath()}&lang=zh`)).text()).toContain('已拒绝：这条帖子不会再被提议。');

    const before = await snapshot();
    for (const form of [confirmForm(), { t: TOKEN, action: 'reject' }]) {
      const used = await post(form);
      expect(used.status).toBe(403);
      const html = await used.text();
      expect(html).toContain('<h1>This link has been used</h1>');
      expect(html).toContain('Now: Rejected: this post will not be proposed again.');
    }
    expect(await snapshot()).toBe(before);
  });

  it('refuses a form from another site, a wrong or expired token, and a second confirm, changing nothing', async () => {
    await storeDraft();
    const before = await snapshot();
    const elsewhere = await post(confirmForm(), { Origin: 'https://evil.example' });
    expect(elsewhere.status).toBe(403);
    const html = await elsewhere.text();
    expect(html).toContain('<h1>Refused: not sent from this page</h1>');
    expect(html).toContain('The form came from another site (https://evil.example)');
    const crossSite = await post(confirmForm(), { Origin: '', 'Sec-Fetch-Site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    expect(await crossSite.text()).toContain('Refused: not sent from this page');
    const wrong = await post(confirmForm({ t: tokenFor(ID, nowSeconds + DAY_SECONDS, 'another key') }));
    expect(wrong.status).toBe(403);
    expect(await wrong.text()).toContain('<h1>This link is not valid</h1>');
    const expired = await post(confirmForm({ t: EXPIRED }));
    expect(expired.status).toBe(403);
    expect(await expired.text()).toContain('<h1>This link has expired</h1>');
    const notForm = await request(`/review/${ID}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: ORIGIN },
      body: JSON.stringify(confirmForm()),
    });
    expect(notForm.status).toBe(415);
    const unknownAction = await post({ t: TOKEN, action: 'publish' });
    expect(unknownAction.status).toBe(400);
    expect(await unknownAction.text()).toContain('Refused: no such action');
    expect(await snapshot()).toBe(before);

    // Same origin, and a browser's same-origin form: confirmed once; the same form again is "used".
    expect((await post(confirmForm(), { 'Sec-Fetch-Site': 'same-origin' })).status).toBe(303);
    const again = await post(confirmForm({ kind: 'boost' }));
    expect(again.status).toBe(403);
    expect(await again.text()).toContain('Now: Confirmed: published; it reaches git next.');
    expect(JSON.parse((await journalRow())!.event)).toMatchObject({ kind: 'reset', verified: true });
  });

  it('withdraws a confirmed event while the token lives and it is not in git; later, a pull request', async () => {
    await storeDraft();
    expect((await post(confirmForm())).status).toBe(303);
    // An expired token withdraws nothing.
    const late = await post({ t: TOKEN, action: 'withdraw' }, {}, env(), new Date((nowSeconds + DAY_SECONDS) * 1000));
    expect(late.status).toBe(403);
    expect(await late.text()).toContain('This link has expired');
    expect(await journalRow()).toMatchObject({ state: 'live', git_state: 'pending' });

    const withdrawn = await post({ t: TOKEN, action: 'withdraw' });
    expect(withdrawn.status).toBe(303);
    expect(await journalRow()).toMatchObject({ state: 'withdrawn', git_state: 'cancelled' });
    const html = await (await request(withdrawn.headers.get('Location')!)).text();
    expect(html).toContain('Withdrawn: the event left every output, and its file will not be committed.');
    expect(html).not.toContain('value="withdraw"');
    const twice = await post({ t: TOKEN, action: 'withdraw' });
    expect(twice.status).toBe(409);
    expect(await twice.text()).toContain('<h1>This event cannot be withdrawn now</h1>');
  });

  it('does not withdraw an event while a try to commit its file is in flight: it may be in git when it ends', async () => {
    await storeDraft();
    expect((await post(confirmForm())).status).toBe(303);
    // A minute after the clock the requests carry (NOW): the try is still in flight when the withdrawal comes.
    const inFlightUntil = new Date(NOW.getTime() + 60_000).toISOString();
    await state.db.prepare('UPDATE journal SET git_try_until = ?2 WHERE id = ?1').bind(ID, inFlightUntil).run();
    const refused = await post({ t: TOKEN, action: 'withdraw' });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain('While its file is being committed, try again in a few seconds');
    expect(await journalRow()).toMatchObject({ state: 'live', git_state: 'pending' });
    // The try ended without landing: the withdrawal goes through.
    await state.db.prepare('UPDATE journal SET git_try_until = NULL WHERE id = ?1').bind(ID).run();
    expect((await post({ t: TOKEN, action: 'withdraw' })).status).toBe(303);
    expect(await journalRow()).toMatchObject({ state: 'withdrawn', git_state: 'cancelled' });
  });

  it('does not withdraw an event whose file is in git: corrections go through a pull request', async () => {
    await storeDraft();
    expect((await post(confirmForm())).status).toBe(303);
    await state.db
      .prepare("UPDATE journal SET git_state = 'committed', git_commit = 'abcdef0123456789' WHERE id = ?1")
      .bind(ID)
      .run();
    const page = await (await request(pagePath())).text();
    expect(page).toContain('Confirmed, and in git now (commit abcdef0): corrections go through a pull request.');
    expect(page).not.toContain('value="withdraw"');
    const refused = await post({ t: TOKEN, action: 'withdraw' });
    expect(refused.status).toBe(409);
    const html = await refused.text();
    expect(html).toContain('once in git, corrections go through a pull request.');
    expect(await journalRow()).toMatchObject({ state: 'live', git_state: 'committed' });
  });

  it('does not publish a reset older than the provider’s latest on the board: that is a pull request’s', async () => {
    await storeDraft();
    const later = { ...DRAFT, id: '1900000000000000200', announcedAt: '2026-06-15T11:59:00.000Z', verified: true };
    const built = env(
      [],
      fixtureFiles([{ ...later, sourceUrl: `https://social.example/@provider_a/${later.id}` }], NOW),
    );
    const before = await snapshot();
    const refused = await post(confirmForm(), {}, built);
    expect(refused.status).toBe(409);
    const html = await refused.text();
    expect(html).toContain('<h1>This reset cannot be published from here</h1>');
    expect(html).toContain('Propose it through the review message’s link to the repository’s editor');
    expect(await snapshot()).toBe(before);
    // As a boost it reorders nothing, and is published.
    expect((await post(confirmForm({ kind: 'boost' }), {}, built)).status).toBe(303);
  });

  it('withdraws nothing of a draft not confirmed', async () => {
    await storeDraft();
    const before = await snapshot();
    const response = await post({ t: TOKEN, action: 'withdraw' });
    expect(response.status).toBe(409);
    expect(await snapshot()).toBe(before);
  });
});
