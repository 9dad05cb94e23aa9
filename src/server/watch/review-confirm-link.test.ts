import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { REAL_D1, stateDatabaseForFile } from '../../../tests/support/state-d1.ts';
import { type ReviewChannel, sendWaitingReviews } from './review.ts';

/**
 * The review message's confirm link (decisions.md, "Confirmed within a minute"): with REVIEW_SIGNING_KEY each
 * message carries `{base_url}/review/<draft id>?t=<token>`, the token made when the message is, for 24 hours; a
 * draft decided on the review page is never messaged again. Over a real local D1; the webhook's POST is caught at
 * `fetch`, and the expected token is made here with Node's own HMAC.
 */

const database = stateDatabaseForFile();
const NOW = new Date('2026-06-15T12:00:00.000Z');
const KEY = 'the review signing key of this test';
const ID = '1900000000000000103';
const EVENT = {
  id: ID,
  provider: 'provider_a',
  kind: 'reset',
  scope: 'global',
  announcedAt: '2026-06-15T11:58:00.000Z',
  effectiveAt: null,
  sourceUrl: `https://social.example/@provider_a/${ID}`,
  sourceAccount: '@provider_a',
  summary: 'Limits reset for everyone',
  audience: [],
  verified: false,
};
const CHANNEL: ReviewChannel = {
  platform: 'discord',
  url: 'https://discord.com/api/webhooks/1/secret',
  repositoryUrl: 'https://github.com/example-owner/departures-board',
};

async function storeDraft(decision: string | null = null): Promise<void> {
  await database.db
    .prepare(
      `INSERT INTO watch_drafts (id, provider, source_url, file, found_at, review_next_at, decision)
       VALUES (?1, 'provider_a', ?2, ?3, ?4, ?4, ?5)`,
    )
    .bind(ID, EVENT.sourceUrl, JSON.stringify(EVENT), NOW.toISOString(), decision)
    .run();
}

/** The bodies POSTed to the webhook, each answered 204. */
function catchPosts(): string[] {
  const bodies: string[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (_url, init) => {
    bodies.push(String(init?.body));
    return new Response(null, { status: 204 });
  });
  return bodies;
}

afterEach(() => vi.restoreAllMocks());

describe('the review message’s confirm link', REAL_D1, () => {
  it('is the review page with a token of the draft that lives 24 hours from the message', async () => {
    await storeDraft();
    const bodies = catchPosts();
    const channel = { ...CHANNEL, confirmLinks: { signingKey: KEY, baseUrl: 'https://board.example' } };
    expect((await sendWaitingReviews(database.db, channel, NOW)).sent).toEqual([ID]);
    const expiry = NOW.getTime() / 1000 + 86_400;
    const token = `${expiry}.${createHmac('sha256', KEY).update(`review\n${ID}\n${expiry}`).digest('base64url')}`;
    const description = (JSON.parse(bodies[0]!) as { embeds: { description: string }[] }).embeds[0]!.description;
    expect(description).toContain(`https://board.example/review/${ID}?t=${token}`);
    expect(description).toContain(`${CHANNEL.repositoryUrl}/new/main?filename=`);
  });

  it('is left out without a signing key: the editor link alone', async () => {
    await storeDraft();
    const bodies = catchPosts();
    expect((await sendWaitingReviews(database.db, CHANNEL, NOW)).sent).toEqual([ID]);
    expect(bodies[0]).not.toContain('/review/');
    expect(bodies[0]).toContain(`${CHANNEL.repositoryUrl}/new/main?filename=`);
  });

  it.each(['confirmed', 'rejected'])('is never sent for a draft %s on the review page', async (decision) => {
    await storeDraft(decision);
    const bodies = catchPosts();
    expect(await sendWaitingReviews(database.db, CHANNEL, NOW)).toEqual({ sent: [], failed: [], recorded: [] });
    expect(bodies).toEqual([]);
  });
});
