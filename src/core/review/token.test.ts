import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { REVIEW_TOKEN_LIFETIME_MS, reviewConfirmUrl, signReviewToken, verifyReviewToken } from './token.ts';

/**
 * The review page's tokens. Expected tokens are made here with Node's own HMAC over the text the format documents
 * (`review\n<draft id>\n<expiry seconds>`), not by the code under test.
 */

const SECRET = 'a review signing key of the test, long enough';
const DRAFT = '1900000000000000103';
const NOW = new Date('2026-06-15T12:00:00.000Z');
const EXPIRY = Math.floor(NOW.getTime() / 1000) + 86_400;

const byHand = (secret: string, draftId: string, expirySeconds: number) =>
  `${expirySeconds}.${createHmac('sha256', secret).update(`review\n${draftId}\n${expirySeconds}`).digest('base64url')}`;

describe('review tokens', () => {
  it('are the expiry in seconds and the base64url HMAC-SHA256 of the draft id and the expiry', async () => {
    const token = await signReviewToken(SECRET, DRAFT, new Date(EXPIRY * 1000));
    expect(token).toBe(byHand(SECRET, DRAFT, EXPIRY));
    expect(token).toMatch(/^\d+\.[A-Za-z0-9_-]{43}$/);
  });

  it('are ok until their expiry, and expired from that second on', async () => {
    const token = byHand(SECRET, DRAFT, EXPIRY);
    expect(await verifyReviewToken(SECRET, DRAFT, token, NOW)).toBe('ok');
    expect(await verifyReviewToken(SECRET, DRAFT, token, new Date(EXPIRY * 1000 - 1))).toBe('ok');
    expect(await verifyReviewToken(SECRET, DRAFT, token, new Date(EXPIRY * 1000))).toBe('expired');
    expect(await verifyReviewToken(SECRET, DRAFT, token, new Date(EXPIRY * 1000 + 86_400_000))).toBe('expired');
  });

  it('are wrong for another draft, another key, a moved expiry or a changed MAC, expired or not', async () => {
    const later = new Date(EXPIRY * 1000 + 1000);
    const token = byHand(SECRET, DRAFT, EXPIRY);
    const [expiry, mac] = token.split('.') as [string, string];
    const flipped = `${mac.slice(0, 10)}${mac[10] === 'A' ? 'B' : 'A'}${mac.slice(11)}`;
    for (const [draft, candidate, secret] of [
      ['1900000000000000104', token, SECRET],
      [DRAFT, token, `${SECRET}!`],
      [DRAFT, `${EXPIRY + 86_400}.${mac}`, SECRET],
      [DRAFT, `${expiry}.${flipped}`, SECRET],
    ] as const) {
      expect(await verifyReviewToken(secret, draft, candidate, NOW), candidate).toBe('wrong');
      expect(await verifyReviewToken(secret, draft, candidate, later), candidate).toBe('wrong');
    }
  });

  it.each([
    ['empty', ''],
    ['no expiry', `.${'A'.repeat(43)}`],
    ['no MAC', `${EXPIRY}.`],
    ['padding', `${byHand(SECRET, DRAFT, EXPIRY)}=`],
    ['standard base64', `${EXPIRY}.${'+/'.repeat(21)}A`],
    ['a short MAC', `${EXPIRY}.${'A'.repeat(42)}`],
    ['a long MAC', `${byHand(SECRET, DRAFT, EXPIRY)}A`],
    ['a signed expiry', `-${byHand(SECRET, DRAFT, EXPIRY)}`],
    ['a leading zero', `0${byHand(SECRET, DRAFT, EXPIRY)}`],
    ['spaces', ` ${byHand(SECRET, DRAFT, EXPIRY)}`],
  ])('refuse a malformed token (%s) as wrong', async (_name, token) => {
    expect(await verifyReviewToken(SECRET, DRAFT, token, NOW)).toBe('wrong');
  });

  it('make the confirm link of a message with a token that lives 24 hours', async () => {
    const url = new URL(await reviewConfirmUrl(SECRET, 'https://board.example/', DRAFT, NOW));
    expect(`${url.origin}${url.pathname}`).toBe(`https://board.example/review/${DRAFT}`);
    const expiry = (NOW.getTime() + REVIEW_TOKEN_LIFETIME_MS) / 1000;
    expect(REVIEW_TOKEN_LIFETIME_MS).toBe(24 * 3_600_000);
    expect(url.searchParams.get('t')).toBe(byHand(SECRET, DRAFT, expiry));
  });
});
