import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_OUTBOUND_RULES, type OutboundProblem, outboundAddress } from './address.ts';

/**
 * Random spellings of known addresses (FUZZ_RUNS each; `npm run fuzz` runs many more): every spelling the WHATWG
 * parser reads as the same URL has the one stored form written in TARGETS, and every forbidden change to a
 * spelling is refused for the rule it breaks. The expected forms are the hand-written table, never the code's.
 */

const RUNS = Number(process.env['FUZZ_RUNS'] ?? 400);

/** Addresses in their stored form, split where a spelling may differ: host, then path (with its query). */
const TARGETS = [
  { host: 'push.example.net', path: '/send/abc', stored: 'https://push.example.net/send/abc' },
  {
    host: 'updates.push.services.example.org',
    path: '/wpush/v2/gAAAAABl-x_Yz',
    stored: 'https://updates.push.services.example.org/wpush/v2/gAAAAABl-x_Yz',
  },
  { host: 'a.b.example', path: '/', stored: 'https://a.b.example/' },
  { host: 'web.push.example.com', path: '/p/q?token=A1', stored: 'https://web.push.example.com/p/q?token=A1' },
] as const;

/** Each letter in upper or lower case at random. */
const anyCase = (text: string) =>
  fc
    .array(fc.boolean(), { minLength: text.length, maxLength: text.length })
    .map((upper) => [...text].map((char, index) => (upper[index] ? char.toUpperCase() : char)).join(''));

/** What the parser drops around a URL: spaces and C0 controls (tab, newline, carriage return). */
const padding = fc.array(fc.constantFrom(' ', '\t', '\n', '\r'), { maxLength: 3 }).map((chars) => chars.join(''));
/** After `https:`, any run of slashes and backslashes, or none, is the same for a special scheme. */
const afterScheme = fc.constantFrom('//', '', '/', '///', '\\\\', '/\\');
/** The default port, or written with leading zeros, or left out. */
const defaultPort = fc.constantFrom('', ':443', ':0443', ':00443');
/** Path segments that resolve to nothing: `.` and `x/..` in their plain and percent-encoded forms. */
const noOpSegment = fc.constantFrom('./', '%2e/', '%2E/', 'zz/../', 'zz/%2e%2e/', 'zz/.%2E/');

/** `path` with no-op segments inserted after some of its slashes (never inside the query). */
const spelledPath = (path: string) => {
  const [beforeQuery = '', query] = path.split('?');
  const parts = beforeQuery.split('/');
  return fc
    .array(fc.option(noOpSegment, { nil: '' }), { minLength: parts.length - 1, maxLength: parts.length - 1 })
    .map((inserts) => {
      const spelled = parts.map((part, index) => (index === 0 ? part : `${inserts[index - 1]}${part}`)).join('/');
      return query === undefined ? spelled : `${spelled}?${query}`;
    });
};

/** A spelling of `target` and the stored form it must have. */
const spellingOf = (target: (typeof TARGETS)[number]) =>
  fc
    .tuple(
      padding,
      anyCase('https:'),
      afterScheme,
      anyCase(target.host),
      fc.constantFrom('', '.'),
      defaultPort,
      spelledPath(target.path),
      padding,
    )
    .map((parts) => ({ text: parts.join(''), stored: target.stored }));

const spelling = fc.constantFrom(...TARGETS).chain(spellingOf);

/** A forbidden change to an address, as text parts around and in it, and the rule it breaks. */
const octet = fc.integer({ min: 0, max: 255 });
const ipv4 = fc.tuple(octet, octet, octet, octet).chain((octets) => {
  const number = octets.reduce((sum, part) => sum * 256 + part, 0);
  return fc.constantFrom(
    octets.join('.'),
    String(number),
    `0x${number.toString(16)}`,
    octets.map((part) => `0${part.toString(8)}`).join('.'),
    `${octets[0]}.${(number % 2 ** 24).toString()}`,
    `${octets.join('.')}.`,
  );
});
const hexGroup = fc.integer({ min: 0, max: 0xffff }).map((group) => group.toString(16));
const ipv6 = fc.oneof(
  fc.array(hexGroup, { minLength: 8, maxLength: 8 }).map((groups) => `[${groups.join(':')}]`),
  fc.tuple(hexGroup, hexGroup).map(([first, last]) => `[${first}::${last}]`),
  // IPv6 allows an embedded IPv4 address in dotted decimal only.
  fc.tuple(octet, octet, octet, octet).map((octets) => `[::ffff:${octets.join('.')}]`),
  fc.constant('[::1]'),
);
const label = fc.stringMatching(/^[a-z][a-z0-9-]{0,10}[a-z0-9]$/);
const privateName = fc
  .tuple(
    label,
    fc.constantFrom('localhost', 'local', 'internal', 'intranet', 'lan', 'home.arpa', 'localdomain'),
    fc.constantFrom('', '.'),
  )
  .chain(([name, suffix, dot]) => anyCase(`${name}.${suffix}${dot}`));
const otherPort = fc.integer({ min: 0, max: 65535 }).filter((port) => port !== 443);

const refused = (text: string, problem: OutboundProblem) => ({ text, problem });

const forbidden = fc.oneof(
  fc
    .tuple(spelling, fc.string({ maxLength: 12 }))
    .map(([{ text }, fragment]) => refused(`${text.trim()}#${fragment}`, 'fragment')),
  fc
    .tuple(fc.constantFrom(...TARGETS), fc.constantFrom('user@', 'user:pass@', ':pass@', 'a%40b:c@'))
    .map(([target, userinfo]) => refused(`https://${userinfo}${target.host}${target.path}`, 'credentials')),
  fc
    .tuple(fc.constantFrom(...TARGETS), otherPort)
    .map(([target, port]) => refused(`https://${target.host}:${port}${target.path}`, 'port')),
  fc
    .tuple(fc.constantFrom(...TARGETS), anyCase('http'))
    .map(([target, scheme]) => refused(`${scheme}://${target.host}${target.path}`, 'not_https')),
  fc
    .tuple(fc.oneof(ipv4, ipv6), afterScheme)
    .map(([host, slashes]) => refused(`https:${slashes}${host}/send/abc`, 'ip_literal')),
  fc
    .tuple(privateName, afterScheme)
    .map(([host, slashes]) => refused(`https:${slashes}${host}/send/abc`, 'private_name')),
);

describe(`outbound addresses, fuzzed (${RUNS} each)`, { timeout: Math.max(30_000, RUNS * 20) }, () => {
  it('every spelling of an address has its one stored form', () => {
    fc.assert(
      fc.property(spelling, ({ text, stored }) => {
        expect(outboundAddress(text, DEFAULT_OUTBOUND_RULES), JSON.stringify(text)).toEqual({ ok: true, url: stored });
      }),
      { numRuns: RUNS },
    );
  });

  it('every forbidden change is refused for the rule it breaks', () => {
    fc.assert(
      fc.property(forbidden, ({ text, problem }) => {
        expect(outboundAddress(text, DEFAULT_OUTBOUND_RULES), JSON.stringify(text)).toEqual({ ok: false, problem });
      }),
      { numRuns: RUNS },
    );
  });
});
