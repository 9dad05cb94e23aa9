import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import {
  createSubscriberKeys,
  decryptPush,
  startPushReceiver,
  verifyVapid,
  type PushReceiver,
  type ReceivedPush,
} from '../../../../../tests/support/push-receiver.ts';
import { vapidForTest } from '../../../../../tests/support/test-vapid.ts';
import { PUSH_TTL_SECONDS, sendPush } from './sender.ts';
import { forgetVapidAuthorizations, VAPID_RENEW_MARGIN_MS, vapidAuthorization } from './vapid-authorization.ts';

/**
 * The VAPID JWT signed once per push-service origin and reused (docs/delivery.md, "Sending"): pushes sent through the
 * real sender to two receivers on loopback (two origins), their `Authorization` verified by `jose` against the
 * public key, with the audience each origin must see; and the renewal, handed the clock at which to decide.
 */

const { keys: vapid } = vapidForTest();
const options = { ttl: PUSH_TTL_SECONDS, urgency: 'high' as const, topic: 'vapid-test', allowLoopbackReceiver: true };

let first: PushReceiver;
let second: PushReceiver;
beforeAll(async () => {
  [first, second] = await Promise.all([startPushReceiver(), startPushReceiver()]);
});
afterAll(async () => {
  await Promise.all([first.close(), second.close()]);
});
beforeEach(() => {
  forgetVapidAuthorizations();
  first.received.length = 0;
  second.received.length = 0;
});

const jwtOf = (push: ReceivedPush) => /^vapid t=([^,]+),/.exec(push.headers.authorization ?? '')![1]!;
/** The audience a push service on `receiver` checks: the https form of its origin (sender.ts, loopback). */
const audienceOf = (receiver: PushReceiver) => receiver.origin.replace('http:', 'https:');

async function push(receiver: PushReceiver, path: string, now = new Date()) {
  const keys = createSubscriberKeys();
  const target = { endpoint: `${receiver.origin}${path}`, p256dh: keys.p256dh, auth: keys.auth, expirationTime: null };
  expect(await sendPush(target, `{"n":"${path}"}`, vapid, options, now)).toEqual({ kind: 'sent' });
  const received = receiver.received.find((item) => item.path === path)!;
  expect(decryptPush(received, keys)).toBe(`{"n":"${path}"}`);
  return received;
}

describe('the VAPID JWT, once per push-service origin', () => {
  it('reuses one valid token for every push to an origin, and signs another, with its own audience, for another origin', async () => {
    const pushes = await Promise.all(['/a', '/b', '/c'].map((path) => push(first, path)));
    const later = await push(first, '/d');
    const elsewhere = await Promise.all(['/x', '/y'].map((path) => push(second, path)));

    // ES256 signatures are randomized: equal tokens are one signature, reused.
    expect(new Set([...pushes, later].map(jwtOf)).size).toBe(1);
    expect(new Set(elsewhere.map(jwtOf)).size).toBe(1);
    expect(jwtOf(elsewhere[0]!)).not.toBe(jwtOf(later));
    for (const received of [...pushes, later]) {
      const claims = await verifyVapid(received, vapid.publicKey, audienceOf(first));
      expect(claims).toMatchObject({ aud: audienceOf(first), sub: vapid.subject });
    }
    for (const received of elsewhere) {
      const claims = await verifyVapid(received, vapid.publicKey, audienceOf(second));
      expect(claims.aud).toBe(audienceOf(second));
    }
    // A token for one origin is refused by a push service at the other.
    await expect(verifyVapid(later, vapid.publicKey, audienceOf(second))).rejects.toThrow(/aud/);
  });

  it('keeps a token until the margin before its expiry, then signs a new one', async () => {
    const endpoint = 'https://push.example.net/send/1';
    const token = await vapidAuthorization(endpoint, vapid);
    const { exp, iat } = decodeJwt(/^vapid t=([^,]+),/.exec(token)![1]!);
    // The library's lifetime, 12 hours, which RFC 8292 and Apple's push service (at most 24 hours) accept.
    expect(exp! - iat!).toBe(12 * 60 * 60);
    const renewAt = exp! * 1000 - VAPID_RENEW_MARGIN_MS;

    expect(await vapidAuthorization(endpoint, vapid, new Date(renewAt - 1000))).toBe(token);
    const renewed = await vapidAuthorization(endpoint, vapid, new Date(renewAt));
    expect(renewed).not.toBe(token);
    expect(decodeJwt(/^vapid t=([^,]+),/.exec(renewed)![1]!).aud).toBe('https://push.example.net');
    // The new token is the one kept from then on (at the real clock, which dated it).
    expect(await vapidAuthorization(endpoint, vapid)).toBe(renewed);
  });

  it('keeps tokens of different keys apart', async () => {
    await push(first, '/mine');
    const { keys: theirs } = vapidForTest('https://departures-board.invalid/contact');
    const keys = createSubscriberKeys();
    const target = { endpoint: `${first.origin}/theirs`, p256dh: keys.p256dh, auth: keys.auth, expirationTime: null };
    expect(await sendPush(target, '{}', theirs, options, new Date())).toEqual({ kind: 'sent' });
    const [mine, sent] = ['/mine', '/theirs'].map((path) => first.received.find((item) => item.path === path)!);
    expect(jwtOf(sent!)).not.toBe(jwtOf(mine!));
    await expect(verifyVapid(mine!, vapid.publicKey, audienceOf(first))).resolves.toMatchObject({ sub: vapid.subject });
    await expect(verifyVapid(sent!, theirs.publicKey, audienceOf(first))).resolves.toMatchObject({
      sub: theirs.subject,
    });
  });
});
