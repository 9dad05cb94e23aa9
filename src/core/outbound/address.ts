import { hasEmptyLabel, isIpLiteral, isPrivateName } from './host.ts';

/**
 * The one policy for every address the service sends to: push endpoints now, WebSub callbacks and chat webhooks
 * later (decisions.md, "Outbound addresses"; docs/security.md, "Outbound addresses"). A stored address is later
 * fetched by the worker, so the policy keeps the write paths from naming anything but a public https service, and
 * gives each URL one stored form, so that two spellings of one URL are one subscription.
 *
 * The rules are judged on the URL as the WHATWG parser reads it (what `fetch` would send to), never on the text:
 * an odd spelling of a forbidden address is the same forbidden address.
 */

export type OutboundProblem =
  | 'not_a_url'
  | 'fragment'
  | 'credentials'
  | 'not_https'
  | 'port'
  | 'ip_literal'
  | 'host_name'
  | 'private_name'
  | 'too_long';

/** What each problem tells the client, worded for any channel (the path says which field). */
export const OUTBOUND_PROBLEM_MESSAGES: Readonly<Record<OutboundProblem, string>> = {
  not_a_url: 'must be an absolute URL',
  fragment: 'must not carry a fragment (#…): it never reaches the server, so it cannot tell two addresses apart',
  credentials: 'must not carry a user name or password',
  not_https: 'must be an https URL',
  port: 'must use the https port, 443 (leave the port out)',
  ip_literal: 'must name its host, not an IP address',
  host_name: 'must name a host without an empty label (`a..b`)',
  private_name: 'must be a public host, not a local, loopback or private name',
  too_long: 'is too long once written in its standard form',
};

/** The longest address stored, in its standard form (a push service's endpoint is far shorter). */
export const OUTBOUND_ADDRESS_MAX_LENGTH = 2048;

export interface OutboundRules {
  /**
   * The loopback test switch (`ALLOW_LOOPBACK_RECEIVERS`, or the older `PUSH_ALLOW_LOOPBACK_RECEIVER`, read by
   * src/server/loopback.ts): the tests' receiver on this machine (`http://127.0.0.1:<port>/…` or
   * `http://localhost:<port>/…`) is let through. Off by default, never on in `npm start` (docs/delivery.md).
   */
  readonly allowLoopbackReceiver: boolean;
}

export const DEFAULT_OUTBOUND_RULES: OutboundRules = { allowLoopbackReceiver: false };

export type OutboundAddress = { ok: true; url: string } | { ok: false; problem: OutboundProblem };

/**
 * `text` as the WHATWG URL parser reads it (scheme and host lowercased, a default port, dot segments and
 * surrounding spaces dropped), with the host's one trailing dot removed: `push.example.net.` names the same host
 * as `push.example.net`. `undefined` when `text` is no URL. Also how a stored address is looked up (a DELETE).
 */
export function parseAddress(text: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.hostname.endsWith('.')) url.hostname = url.hostname.slice(0, -1);
  return url;
}

/**
 * The tests' receiver on this machine: `http://127.0.0.1:<port>/…` or `http://localhost:<port>/…`. Let through only
 * under the loopback test switch (`OutboundRules.allowLoopbackReceiver`).
 */
export const isLoopbackReceiver = (url: URL): boolean =>
  url.protocol === 'http:' && (url.hostname === '127.0.0.1' || url.hostname === 'localhost') && url.port !== '';

/** What is wrong with the parsed `url` as an address to send to, or `undefined` when the service may send to it. */
function problemOf(url: URL, rules: OutboundRules): OutboundProblem | undefined {
  // `https://x/#` has an empty fragment: `hash` is empty, the serialization still ends in `#`.
  if (url.hash !== '' || url.href.endsWith('#')) return 'fragment';
  if (url.username !== '' || url.password !== '') return 'credentials';
  if (rules.allowLoopbackReceiver && isLoopbackReceiver(url)) return undefined;
  if (url.protocol !== 'https:') return 'not_https';
  // The parser empties `port` for https's default, so `:443` (or `:0443`) is the same URL and anything else is not.
  if (url.port !== '') return 'port';
  if (isIpLiteral(url.hostname)) return 'ip_literal';
  if (hasEmptyLabel(url.hostname)) return 'host_name';
  if (isPrivateName(url.hostname)) return 'private_name';
  if (url.href.length > OUTBOUND_ADDRESS_MAX_LENGTH) return 'too_long';
  return undefined;
}

/** `text` in its stored form when the service may send to it, else the first rule it breaks. */
export function outboundAddress(text: string, rules: OutboundRules): OutboundAddress {
  const url = parseAddress(text);
  if (url === undefined) return { ok: false, problem: 'not_a_url' };
  const problem = problemOf(url, rules);
  return problem === undefined ? { ok: true, url: url.href } : { ok: false, problem };
}
