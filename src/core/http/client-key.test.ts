import { describe, expect, it } from 'vitest';
import { clientKey, UNKNOWN_CLIENT_KEY } from './client-key.ts';

/** The expected keys are written by hand: the /64 of each address, worked out group by group. */

describe('clientKey: IPv4 is counted per address', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['0.0.0.0', '0.0.0.0'],
    ['255.255.255.255', '255.255.255.255'],
    ['10.0.0.1', '10.0.0.1'],
    ['192.0.2.100', '192.0.2.100'],
  ])('%s → %s', (header, key) => {
    expect(clientKey(header)).toBe(key);
  });

  it('two addresses of one IPv4 /24 are two clients', () => {
    expect(clientKey('198.51.100.1')).not.toBe(clientKey('198.51.100.2'));
  });
});

describe('clientKey: IPv6 is counted per /64, in one spelling', () => {
  // Every spelling of an address in 2001:db8:0:a::/64 (the documentation prefix).
  it.each([
    '2001:db8:0:a::1',
    '2001:db8:0:a:0:0:0:1',
    '2001:0db8:0000:000a:0000:0000:0000:0001',
    '2001:DB8:0:A::1',
    '2001:Db8:0:a::1',
    '2001:db8::a:0:0:0:1',
    '2001:db8:0:a:ffff:ffff:ffff:ffff',
    '2001:db8:0:a:1234:5678:9abc:def0',
    '2001:db8:0:a::',
    '2001:db8:0:a:1::',
    '2001:db8:0:a::5:6:7',
    '2001:db8:0:a:1:2:3::',
    '2001:db8:0:a:0:5efe:192.0.2.1',
    '2001:db8:0:a::192.0.2.1',
    '2001:db8:0:a::1%eth0',
    '2001:db8:0:a::1%25',
    '2001:db8:0:A:AbCd:EF01:2345:6789',
  ])('%s → 2001:db8:0:a::/64', (header) => {
    expect(clientKey(header)).toBe('2001:db8:0:a::/64');
  });

  it.each([
    ['2606:4700:4700::1111', '2606:4700:4700:0::/64'],
    ['2606:4700:4700:0:0:0:0:1001', '2606:4700:4700:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['FE80::ABCD%en0', 'fe80:0:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['::', '0:0:0:0::/64'],
    ['1::', '1:0:0:0::/64'],
    ['1:2:3:4:5:6:7:8', '1:2:3:4::/64'],
    ['1:2:3:4:5:6:7::', '1:2:3:4::/64'],
    ['::2:3:4:5:6:7:8', '0:2:3:4::/64'],
    ['ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'ffff:ffff:ffff:ffff::/64'],
    ['2a00:1450:4001:82b::200e', '2a00:1450:4001:82b::/64'],
    ['2a00:1450:4001:082b:0000:0000:0000:200e', '2a00:1450:4001:82b::/64'],
    ['::ffff:0:1:2', '0:0:0:0::/64'],
    // IPv4-compatible (deprecated, ::/96) and NAT64 (64:ff9b::/96) are IPv6 addresses, not IPv4 clients.
    ['::192.0.2.1', '0:0:0:0::/64'],
    ['64:ff9b::192.0.2.1', '64:ff9b:0:0::/64'],
  ])('%s → %s', (header, key) => {
    expect(clientKey(header)).toBe(key);
  });

  it('addresses of two neighbouring /64s are two clients', () => {
    expect(clientKey('2001:db8:0:a::1')).not.toBe(clientKey('2001:db8:0:b::1'));
    expect(clientKey('2001:db8:0:a::1')).not.toBe(clientKey('2001:db8:1:a::1'));
  });

  it('is never the key of an IPv4 address or the unknown key', () => {
    expect(clientKey('::')).not.toBe(clientKey('0.0.0.0'));
    expect(clientKey('2001:db8::1')).toMatch(/::\/64$/);
  });
});

describe('clientKey: an IPv4-mapped IPv6 address is its IPv4 address', () => {
  it.each([
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::FFFF:203.0.113.7', '203.0.113.7'],
    ['0:0:0:0:0:ffff:203.0.113.7', '203.0.113.7'],
    ['0000:0000:0000:0000:0000:FFFF:203.0.113.7', '203.0.113.7'],
    ['::ffff:cb00:7107', '203.0.113.7'],
    ['::ffff:CB00:7107', '203.0.113.7'],
    ['0:0:0:0:0:ffff:cb00:7107', '203.0.113.7'],
    ['::0:ffff:203.0.113.7', '203.0.113.7'],
    ['::ffff:0.0.0.0', '0.0.0.0'],
    ['::ffff:255.255.255.255', '255.255.255.255'],
    ['::ffff:a00:1', '10.0.0.1'],
  ])('%s → %s', (header, key) => {
    expect(clientKey(header)).toBe(key);
  });
});

describe('clientKey: anything else is the one unknown key', () => {
  it('with no header', () => {
    expect(clientKey(null)).toBe(UNKNOWN_CLIENT_KEY);
    expect(clientKey(undefined)).toBe(UNKNOWN_CLIENT_KEY);
    expect(UNKNOWN_CLIENT_KEY).toBe('unknown');
  });

  it.each([
    '',
    ' ',
    'unknown',
    'localhost',
    'example.com',
    '203.0.113',
    '203.0.113.7.1',
    '203.0.113.256',
    '203.0.113.-1',
    '203.0.113.07',
    '0203.0.113.7',
    '0x7f.0.0.1',
    '2130706433',
    '203.0.113.7:443',
    '203.0.113.7, 198.51.100.1',
    ' 203.0.113.7',
    '203.0.113.7%eth0',
    '[2001:db8::1]',
    '[2001:db8::1]:443',
    '2001:db8::1::2',
    '2001:db8:::1',
    ':2001:db8::1',
    '2001:db8::1:',
    ':',
    ':::',
    '1:2:3:4:5:6:7',
    '1:2:3:4:5:6:7:8:9',
    '1:2:3:4:5:6:7:8::',
    '::1:2:3:4:5:6:7:8',
    '2001:db8:0:a:0:0:0:0:1',
    '12345::1',
    '2001:db8::g',
    '2001:db8::1%',
    '2001:db8::1%eth 0',
    '2001:db8::1%eth0%1',
    '2001:db8::1 ',
    '::ffff:203.0.113.256',
    '::ffff:203.0.113',
    '::203.0.113.7:1',
    '203.0.113.7::1',
    '1:2:3:4:5:6:7:203.0.113.7',
    '1:2:3:4:5:6:203.0.113.7:1',
    `2001:db8::1%${'e'.repeat(200)}`,
    '\u0032001:db8::\u0661',
  ])('%j', (header) => {
    expect(clientKey(header)).toBe(UNKNOWN_CLIENT_KEY);
  });
});
