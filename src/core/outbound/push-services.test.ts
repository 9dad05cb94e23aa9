import { describe, expect, it } from 'vitest';
import { isKnownPushService, PUSH_SERVICES, UNKNOWN_PUSH_SERVICE_MESSAGE } from './push-services.ts';

/** Real endpoints' shapes, as each browser's PushSubscription gives them (tokens shortened). */
describe('isKnownPushService: the services decisions.md names', () => {
  it.each([
    ['Chrome, Edge, Opera, Brave (FCM)', 'https://fcm.googleapis.com/fcm/send/dP3Tk:APA91bH'],
    ['Chrome, newer endpoints (FCM)', 'https://fcm.googleapis.com/wp/dP3Tk:APA91bH'],
    ['Firefox', 'https://updates.push.services.mozilla.com/wpush/v2/gAAAAABk'],
    ['Firefox, v1 endpoints', 'https://updates.push.services.mozilla.com/wpush/v1/gAAAAABk'],
    ['Safari', 'https://web.push.apple.com/QGuQyavXutnMH'],
    ['Windows (WNS), one region', 'https://wns2-by3p.notify.windows.com/w/?token=BQYAAAB'],
    ['Windows (WNS), another region', 'https://db5p.notify.windows.com/w/?token=AwYAAAB'],
    ['Windows (WNS), a deeper host', 'https://a.b.notify.windows.com/w/'],
  ])('%s', (_name, url) => {
    expect(isKnownPushService(url)).toBe(true);
  });

  it.each([
    ['an upper-case host', 'https://FCM.GoogleAPIs.com/fcm/send/x'],
    ['an upper-case scheme', 'HTTPS://web.push.apple.com/x'],
    ['a trailing dot', 'https://updates.push.services.mozilla.com./wpush/v2/x'],
    ['the explicit port 443', 'https://fcm.googleapis.com:443/fcm/send/x'],
    ['a percent-encoded dot in the host', 'https://fcm%2Egoogleapis.com/fcm/send/x'],
    ['full-width letters the parser maps', 'https://ｆｃｍ.googleapis.com/fcm/send/x'],
  ])('in another spelling the URL parser reads as the same host: %s', (_name, url) => {
    expect(isKnownPushService(url)).toBe(true);
  });

  it('takes a parsed URL as well as text', () => {
    expect(isKnownPushService(new URL('https://web.push.apple.com/x'))).toBe(true);
    expect(isKnownPushService(new URL('https://push.example.net/x'))).toBe(false);
  });
});

describe('isKnownPushService: anything else', () => {
  it.each([
    ['another host', 'https://push.example.net/send/abc'],
    ['a service not on the list (old GCM)', 'https://android.googleapis.com/gcm/send/x'],
    ['a sibling of FCM', 'https://fcm2.googleapis.com/fcm/send/x'],
    ['a subdomain of FCM', 'https://evil.fcm.googleapis.com/fcm/send/x'],
    ['a subdomain of Apple’s', 'https://x.web.push.apple.com/x'],
    ['a parent of Mozilla’s', 'https://push.services.mozilla.com/wpush/v2/x'],
    ['FCM as a prefix of another name', 'https://fcm.googleapis.com.evil.example/fcm/send/x'],
    ['FCM as a label of another name', 'https://fcm.googleapis.com-evil.example/x'],
    ['a name that ends like FCM', 'https://evilfcm.googleapis.com/x'],
    ['a name that ends like WNS', 'https://evilnotify.windows.com/w/'],
    ['WNS’s parent itself', 'https://notify.windows.com/w/'],
    ['WNS with an empty label', 'https://a..notify.windows.com/w/'],
    ['WNS as a prefix of another name', 'https://db5p.notify.windows.com.evil.example/w/'],
    ['FCM as the user name', 'https://fcm.googleapis.com@evil.example/fcm/send/x'],
    ['FCM in the path', 'https://evil.example/fcm.googleapis.com/fcm/send/x'],
    ['FCM in the query', 'https://evil.example/?host=fcm.googleapis.com'],
    ['plain http', 'http://fcm.googleapis.com/fcm/send/x'],
    ['another port', 'https://fcm.googleapis.com:8443/fcm/send/x'],
    ['the loopback receiver', 'http://127.0.0.1:8787/push'],
    ['an IP literal', 'https://142.250.185.138/fcm/send/x'],
    ['a Cyrillic look-alike (xn--)', 'https://fсm.googleapis.com/fcm/send/x'],
    ['no URL', 'fcm.googleapis.com/fcm/send/x'],
    ['the empty string', ''],
  ])('%s', (_name, url) => {
    expect(isKnownPushService(url)).toBe(false);
  });
});

describe('the one list', () => {
  it('holds exactly the services decisions.md names', () => {
    expect(PUSH_SERVICES.map((service) => [service.host, service.subdomains])).toEqual([
      ['fcm.googleapis.com', false],
      ['updates.push.services.mozilla.com', false],
      ['web.push.apple.com', false],
      ['notify.windows.com', true],
    ]);
  });

  it('is named in full in the message a refused endpoint gets', () => {
    expect(UNKNOWN_PUSH_SERVICE_MESSAGE).toBe(
      'must be on a known Web Push service: fcm.googleapis.com (Chrome, Edge, Opera, Brave), ' +
        'updates.push.services.mozilla.com (Firefox), web.push.apple.com (Safari), *.notify.windows.com (Windows)',
    );
  });
});
