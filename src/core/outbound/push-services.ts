import { parseAddress } from './address.ts';
import { hasEmptyLabel } from './host.ts';

/**
 * The Web Push services a push endpoint may be on (decisions.md, "Delivery that loses nothing": "a push endpoint must
 * be on a known Web Push service … the list lives in one place"). This is that place. A browser's
 * `PushSubscription.endpoint` is always on its vendor's service, so an endpoint anywhere else is no browser's: the
 * write path refuses it (src/core/push/subscription.ts), and the service never sends a push elsewhere.
 *
 * Judged on the URL as the WHATWG parser reads it (what `fetch` would reach), like the outbound-address policy
 * (address.ts), which an endpoint must pass as well: `https://FCM.googleapis.com./…` is on FCM,
 * `https://fcm.googleapis.com.evil.example/…` and `https://fcm.googleapis.com@evil.example/…` are not.
 */

export interface PushService {
  /** The host, or with `subdomains` the parent every host of the service is under. */
  readonly host: string;
  /** Any host under `host` (never `host` itself): Windows gives each region a host of its own. */
  readonly subdomains: boolean;
  /** Whose browsers use it, for the message that names the accepted services. */
  readonly browsers: string;
}

export const PUSH_SERVICES: readonly PushService[] = [
  { host: 'fcm.googleapis.com', subdomains: false, browsers: 'Chrome, Edge, Opera, Brave' },
  { host: 'updates.push.services.mozilla.com', subdomains: false, browsers: 'Firefox' },
  { host: 'web.push.apple.com', subdomains: false, browsers: 'Safari' },
  { host: 'notify.windows.com', subdomains: true, browsers: 'Windows' },
];

const spelled = (service: PushService) => (service.subdomains ? `*.${service.host}` : service.host);

/** What the write path tells a client whose endpoint is elsewhere: every accepted service, by name. */
export const UNKNOWN_PUSH_SERVICE_MESSAGE = `must be on a known Web Push service: ${PUSH_SERVICES.map(
  (service) => `${spelled(service)} (${service.browsers})`,
).join(', ')}`;

const isOn = (host: string, service: PushService): boolean =>
  service.subdomains
    ? host.endsWith(`.${service.host}`) && host.length > service.host.length + 1 && !hasEmptyLabel(host)
    : host === service.host;

/**
 * Whether `url` is an https URL on the default port of a host of a known Web Push service. Only the service is
 * judged here; the other rules of an address (no credentials, no fragment …) are the outbound policy's.
 */
export function isKnownPushService(url: string | URL): boolean {
  const parsed = parseAddress(String(url));
  if (parsed === undefined || parsed.protocol !== 'https:' || parsed.port !== '') return false;
  return PUSH_SERVICES.some((service) => isOn(parsed.hostname, service));
}
