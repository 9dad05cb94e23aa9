import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { subscribeRequestSchema } from './subscription.ts';

/**
 * The push endpoint's rules in the subscribe body (decisions.md: an outbound address, on a known Web Push service;
 * the loopback receiver only under the test switch). Expected issues are written by hand.
 */

const OFF = { allowLoopbackReceiver: false };
const ON = { allowLoopbackReceiver: true };

function body(endpoint: string) {
  const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const p256dh = Buffer.from(publicKey.export({ format: 'der', type: 'spki' }).subarray(-65)).toString('base64url');
  return {
    subscription: { endpoint, expirationTime: null, keys: { p256dh, auth: randomBytes(16).toString('base64url') } },
    providers: ['provider_a'],
  };
}

const SERVICES =
  'must be on a known Web Push service: fcm.googleapis.com (Chrome, Edge, Opera, Brave), ' +
  'updates.push.services.mozilla.com (Firefox), web.push.apple.com (Safari), *.notify.windows.com (Windows)';

async function endpointOf(endpoint: string, rules = OFF): Promise<string> {
  const parsed = await subscribeRequestSchema(rules).safeParseAsync(body(endpoint));
  if (!parsed.success) throw new Error(JSON.stringify(parsed.error.issues));
  return parsed.data.subscription.endpoint;
}

async function issuesOf(endpoint: string, rules = OFF) {
  const parsed = await subscribeRequestSchema(rules).safeParseAsync(body(endpoint));
  return parsed.success ? [] : parsed.error.issues.map(({ path, message }) => ({ path, message }));
}

describe('the subscribe body’s endpoint', () => {
  it.each([
    ['https://fcm.googleapis.com/fcm/send/abc:APA91b', 'https://fcm.googleapis.com/fcm/send/abc:APA91b'],
    [
      'https://updates.push.services.mozilla.com/wpush/v2/gAAAA',
      'https://updates.push.services.mozilla.com/wpush/v2/gAAAA',
    ],
    ['https://web.push.apple.com/QGuQyavXutnMH', 'https://web.push.apple.com/QGuQyavXutnMH'],
    ['https://wns2-by3p.notify.windows.com/w/?token=BQY', 'https://wns2-by3p.notify.windows.com/w/?token=BQY'],
    ['HTTPS://FCM.googleapis.com.:443/fcm/send/./abc', 'https://fcm.googleapis.com/fcm/send/abc'],
  ])('on a known service passes, in its stored form: %s', async (endpoint, stored) => {
    expect(await endpointOf(endpoint)).toBe(stored);
  });

  it.each([
    'https://push.example.net/send/abc',
    'https://fcm.googleapis.com.evil.example/fcm/send/abc',
    'https://android.googleapis.com/gcm/send/abc',
    'https://notify.windows.com/w/',
  ])('elsewhere is refused with one issue naming the accepted services: %s', async (endpoint) => {
    expect(await issuesOf(endpoint)).toEqual([{ path: ['subscription', 'endpoint'], message: SERVICES }]);
  });

  it.each([
    ['https://192.168.1.10/x', 'must name its host, not an IP address'],
    ['https://fcm.googleapis.com:8443/fcm/send/x', 'must use the https port, 443 (leave the port out)'],
    ['http://fcm.googleapis.com/fcm/send/x', 'must be an https URL'],
    ['https://fcm.googleapis.com/fcm/send/x#frag', expect.stringMatching(/^must not carry a fragment/)],
    ['http://127.0.0.1:8787/x', 'must be an https URL'],
  ])('an address the outbound policy refuses gets the policy’s issue alone: %s', async (endpoint, message) => {
    expect(await issuesOf(endpoint)).toEqual([{ path: ['subscription', 'endpoint'], message }]);
  });

  it('under the loopback test switch the receiver on this machine passes, and nothing else more', async () => {
    expect(await endpointOf('http://127.0.0.1:8787/push/a', ON)).toBe('http://127.0.0.1:8787/push/a');
    expect(await endpointOf('http://localhost:8787/push/a', ON)).toBe('http://localhost:8787/push/a');
    expect(await endpointOf('https://fcm.googleapis.com/fcm/send/abc', ON)).toBe(
      'https://fcm.googleapis.com/fcm/send/abc',
    );
    expect(await issuesOf('https://push.example.net/send/abc', ON)).toEqual([
      { path: ['subscription', 'endpoint'], message: SERVICES },
    ]);
    expect(await issuesOf('http://192.168.1.10:8787/x', ON)).toEqual([
      { path: ['subscription', 'endpoint'], message: 'must be an https URL' },
    ]);
  });
});
