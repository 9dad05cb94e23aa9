/**
 * The key a rate limiter counts a client under (decisions.md, "Delivery that loses nothing": "limited per IPv4
 * address or IPv6 /64"), from the `CF-Connecting-IP` header. One customer usually gets a whole IPv6 /64 and can
 * send from any of its 2^64 addresses, so counting per full IPv6 address would let one customer write without
 * bound; an IPv4 address is counted alone.
 *
 * - IPv4 (dotted decimal, each part 0–255 without leading zeros): the address as written, `203.0.113.7`.
 * - IPv6: its first 64 bits in one spelling, whatever spelling the header used (`::` anywhere, upper or lower
 *   case, leading zeros, an IPv4 tail, a zone id `%eth0`): the four groups in lowercase hex without leading
 *   zeros, then `::/64`, e.g. `2001:db8:0:a::/64`.
 * - IPv4-mapped IPv6 (`::ffff:203.0.113.7`, also `::ffff:cb00:7107`) is that IPv4 address: `203.0.113.7`.
 * - Anything else (no header, an empty or malformed one, brackets, a port, a list): `unknown`, one shared key.
 *   Cloudflare's edge always sets a valid address, so that bucket is only ever shared by local clients.
 */

/** The key of a request without a usable client address. */
export const UNKNOWN_CLIENT_KEY = 'unknown';

/** Longer than any spelling of an address with a sensible zone id: not worth parsing. */
const MAX_LENGTH = 100;

const IPV4_PART = /^(?:0|[1-9]\d{0,2})$/;
const HEX_GROUP = /^[0-9a-f]{1,4}$/i;
/** RFC 6874's zone id, loosely: what an interface name is made of. */
const ZONE_ID = /^[\w.~-]+$/;

/** The four parts of a canonical dotted-decimal IPv4 address, or undefined. */
function ipv4Parts(text: string): number[] | undefined {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((part) => IPV4_PART.test(part))) return undefined;
  const numbers = parts.map(Number);
  return numbers.every((part) => part <= 255) ? numbers : undefined;
}

/** The eight 16-bit groups of an IPv6 address (without zone id), or undefined. */
function ipv6Groups(text: string): number[] | undefined {
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groupsOf = (half: string): number[] | undefined => {
    if (half === '') return [];
    const pieces = half.split(':');
    const groups: number[] = [];
    for (const [index, piece] of pieces.entries()) {
      if (HEX_GROUP.test(piece)) groups.push(Number.parseInt(piece, 16));
      else if (index === pieces.length - 1 && piece.includes('.')) {
        const ipv4 = ipv4Parts(piece);
        if (ipv4 === undefined) return undefined;
        groups.push(ipv4[0]! * 256 + ipv4[1]!, ipv4[2]! * 256 + ipv4[3]!);
      } else return undefined;
    }
    return groups;
  };
  const head = groupsOf(halves[0]!);
  if (head === undefined) return undefined;
  if (halves.length === 1) return head.length === 8 ? head : undefined;
  // An IPv4 tail belongs at the very end, so only the part after `::` may hold one.
  if (halves[0]!.includes('.')) return undefined;
  const tail = groupsOf(halves[1]!);
  if (tail === undefined || head.length + tail.length > 7) return undefined;
  return [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
}

/** The rate-limit key of a client whose address is `header` (`CF-Connecting-IP`, null when absent). */
export function clientKey(header: string | null | undefined): string {
  if (header === null || header === undefined || header.length > MAX_LENGTH) return UNKNOWN_CLIENT_KEY;
  if (!header.includes(':')) return ipv4Parts(header) === undefined ? UNKNOWN_CLIENT_KEY : header;

  const zone = header.indexOf('%');
  if (zone >= 0 && !ZONE_ID.test(header.slice(zone + 1))) return UNKNOWN_CLIENT_KEY;
  const groups = ipv6Groups(zone >= 0 ? header.slice(0, zone) : header);
  if (groups === undefined) return UNKNOWN_CLIENT_KEY;

  // ::ffff:0:0/96 holds the IPv4 addresses (RFC 4291 §2.5.5.2): such a client is the IPv4 address it maps.
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff)
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}
