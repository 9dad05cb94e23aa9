/**
 * What a parsed URL's host says about where a request to it would go. Called with a WHATWG-parsed, lowercased
 * host whose trailing dot is already removed (address.ts), so that every spelling of one host is judged alike.
 */

/**
 * An IP address rather than a name. The WHATWG parser has already turned every IPv4 spelling (`0x7f.1`,
 * `2130706433`, `0177.0.0.1`, `127.1`) into dotted decimal and every IPv6 one into its bracketed short form. A
 * name whose last label is a number is taken for an address too: no top-level domain is numeric (RFC 3696 §2),
 * and a parser that left such a host alone must not let it through as a name.
 */
export function isIpLiteral(host: string): boolean {
  if (host.startsWith('[')) return true;
  const last = host.split('.').at(-1) ?? '';
  return /^(?:\d+|0x[0-9a-f]*)$/i.test(last);
}

/** Names that resolve inside a network, never to a public service (RFC 6761, 6762, 8375, and common use). */
const PRIVATE_NAME_SUFFIXES = ['localhost', 'local', 'internal', 'intranet', 'lan', 'home.arpa', 'localdomain'];

/** A loopback, link-local or private name: one of those suffixes, or a single label (a search-domain name). */
export const isPrivateName = (host: string): boolean =>
  !host.includes('.') || PRIVATE_NAME_SUFFIXES.some((suffix) => host === suffix || host.endsWith(`.${suffix}`));

/** A DNS name has no empty label: `a..b` or a second trailing dot names no host. */
export const hasEmptyLabel = (host: string): boolean => host.split('.').some((label) => label === '');
