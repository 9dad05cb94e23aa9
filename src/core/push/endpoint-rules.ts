/**
 * Which push endpoints the service will send to (decisions.md, "Push notifications"): https only, and never to
 * an address that names this machine's network rather than a push service (an IP literal, a loopback,
 * link-local or private name). The one write path must not become a way to make the worker call inward.
 */

/** Names that resolve inside a network, never to a public push service (RFC 6761, 6762, 8375, common use). */
const PRIVATE_NAME_SUFFIXES = ['localhost', 'local', 'internal', 'intranet', 'lan', 'home.arpa', 'localdomain'];

const isIpLiteral = (hostname: string): boolean =>
  hostname.startsWith('[') || /^[0-9.]+$/.test(hostname) || /^0x/i.test(hostname);

const isPrivateName = (hostname: string): boolean =>
  !hostname.includes('.') ||
  PRIVATE_NAME_SUFFIXES.some((suffix) => hostname === suffix || hostname.endsWith(`.${suffix}`));

export type EndpointProblem = 'not_a_url' | 'not_https' | 'credentials' | 'ip_literal' | 'private_name';

export interface EndpointRules {
  /**
   * `PUSH_ALLOW_LOOPBACK_RECEIVER`: the tests' receiver on this machine (`http://127.0.0.1:<port>/…` or
   * `http://localhost:<port>/…`) is let through. Off by default, never on in `npm start` (docs/push.md).
   */
  readonly allowLoopbackReceiver: boolean;
}

const isLoopbackReceiver = (url: URL): boolean =>
  url.protocol === 'http:' && (url.hostname === '127.0.0.1' || url.hostname === 'localhost') && url.port !== '';

/** What is wrong with `endpoint` as a push endpoint, or `undefined` when the service may send to it. */
export function endpointProblem(endpoint: string, rules: EndpointRules): EndpointProblem | undefined {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'not_a_url';
  }
  if (rules.allowLoopbackReceiver && isLoopbackReceiver(url)) return undefined;
  if (url.protocol !== 'https:') return 'not_https';
  if (url.username !== '' || url.password !== '') return 'credentials';
  // The URL parser has already turned every IPv4 spelling (`0x7f.1`, `2130706433`) into dotted decimal.
  if (isIpLiteral(url.hostname)) return 'ip_literal';
  if (isPrivateName(url.hostname.replace(/\.$/, ''))) return 'private_name';
  return undefined;
}
