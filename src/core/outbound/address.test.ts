import { describe, expect, it } from 'vitest';
import { DEFAULT_OUTBOUND_RULES, type OutboundProblem, outboundAddress, parseAddress } from './address.ts';

/**
 * The outbound-address policy (decisions.md, "Outbound addresses"). Every expected stored form and every expected
 * problem below is written by hand from the decision, not computed by the code under test.
 */

const LOOPBACK_ON = { allowLoopbackReceiver: true };
const accepted = (text: string, rules = DEFAULT_OUTBOUND_RULES) => outboundAddress(text, rules);

describe('spellings of one address have one stored form', () => {
  it.each([
    ['the standard form itself', 'https://push.example.net/send/abc'],
    ['an upper-case host', 'https://PUSH.Example.NET/send/abc'],
    ['surrounding spaces', '  https://push.example.net/send/abc \t'],
    ['the explicit default port', 'https://push.example.net:443/send/abc'],
    ['the default port with a leading zero', 'https://push.example.net:0443/send/abc'],
    ['no slashes after the scheme', 'https:push.example.net/send/abc'],
    ['one slash after the scheme', 'https:/push.example.net/send/abc'],
    ['backslashes after the scheme', 'https:\\\\push.example.net/send/abc'],
    ['an upper-case scheme', 'HTTPS://push.example.net/send/abc'],
    ['a trailing dot on the host', 'https://push.example.net./send/abc'],
    ['a dot segment in the path', 'https://push.example.net/send/./abc'],
    ['a dot-dot segment in the path', 'https://push.example.net/send/x/../abc'],
    ['an encoded dot segment', 'https://push.example.net/send/%2e/abc'],
    ['all of them at once', ' HTTPS:PUSH.EXAMPLE.NET.:443/send/./abc '],
  ])('%s', (_name, text) => {
    expect(accepted(text)).toEqual({ ok: true, url: 'https://push.example.net/send/abc' });
  });

  it('keeps what tells two addresses apart: path case, query, percent-encoding', () => {
    expect(accepted('https://push.example.net/Send/ABC?x=1')).toEqual({
      ok: true,
      url: 'https://push.example.net/Send/ABC?x=1',
    });
    expect(accepted('https://push.example.net/send/a b')).toEqual({
      ok: true,
      url: 'https://push.example.net/send/a%20b',
    });
  });

  it('writes an international host in its ASCII form', () => {
    expect(accepted('https://bücher.example/x')).toEqual({ ok: true, url: 'https://xn--bcher-kva.example/x' });
  });
});

describe('addresses the service never sends to', () => {
  it.each<[string, string, OutboundProblem]>([
    ['no URL at all', 'push.example.net/send/abc', 'not_a_url'],
    ['an empty text', '', 'not_a_url'],
    ['an https URL without a host', 'https://', 'not_a_url'],
    ['a fragment', 'https://push.example.net/send/abc#frag', 'fragment'],
    ['an empty fragment', 'https://push.example.net/send/abc#', 'fragment'],
    ['a user name', 'https://user@push.example.net/x', 'credentials'],
    ['a user name and password', 'https://user:secret@push.example.net/x', 'credentials'],
    ['an empty password', 'https://user:@push.example.net/x', 'credentials'],
    ['http', 'http://push.example.net/x', 'not_https'],
    ['another scheme', 'ftp://push.example.net/x', 'not_https'],
    ['a data URL', 'data:text/plain,hello', 'not_https'],
    ['port 22', 'https://push.example.net:22/x', 'port'],
    ['port 6379', 'https://push.example.net:6379/x', 'port'],
    ['port 0', 'https://push.example.net:0/x', 'port'],
    ['port 80', 'https://push.example.net:80/x', 'port'],
    ['port 8443', 'https://push.example.net:8443/x', 'port'],
    ['an IPv4 address', 'https://192.168.1.10/x', 'ip_literal'],
    ['an IPv4 address as one number', 'https://3232235786/x', 'ip_literal'],
    ['an IPv4 address in hex', 'https://0x7f.1/x', 'ip_literal'],
    ['an IPv4 address in octal', 'https://0177.0.0.1/x', 'ip_literal'],
    ['an IPv4 address with two parts', 'https://127.1/x', 'ip_literal'],
    ['an IPv4 address with a trailing dot', 'https://8.8.8.8./x', 'ip_literal'],
    ['a public IPv4 address', 'https://1.1.1.1/x', 'ip_literal'],
    ['IPv6 loopback', 'https://[::1]/x', 'ip_literal'],
    ['IPv6 loopback written out', 'https://[0:0:0:0:0:0:0:1]/x', 'ip_literal'],
    ['IPv4 inside IPv6', 'https://[::ffff:127.0.0.1]/x', 'ip_literal'],
    ['IPv6 link-local', 'https://[fe80::1]/x', 'ip_literal'],
    ['a public IPv6 address', 'https://[2001:db8::1]/x', 'ip_literal'],
    ['localhost', 'https://localhost/x', 'private_name'],
    ['localhost in upper case with a dot', 'https://LOCALHOST./x', 'private_name'],
    ['localhost in full-width letters', 'https://ｌｏｃａｌｈｏｓｔ/x', 'private_name'],
    ['localhost percent-encoded', 'https://%6c%6fcalhost/x', 'private_name'],
    ['a name under localhost', 'https://app.localhost/x', 'private_name'],
    ['a .local name', 'https://printer.local/x', 'private_name'],
    ['a .internal name', 'https://metadata.google.internal/x', 'private_name'],
    ['a .intranet name', 'https://wiki.intranet/x', 'private_name'],
    ['a .lan name', 'https://router.lan/x', 'private_name'],
    ['a .home.arpa name', 'https://nas.home.arpa/x', 'private_name'],
    ['a .localdomain name', 'https://box.localdomain/x', 'private_name'],
    ['a single-label name', 'https://intranet/x', 'private_name'],
    ['an empty label', 'https://push..example.net/x', 'host_name'],
    ['two trailing dots', 'https://push.example.net../x', 'host_name'],
    ['the loopback receiver while the setting is off', 'http://127.0.0.1:8787/x', 'not_https'],
  ])('%s', (_name, text, problem) => {
    expect(accepted(text)).toEqual({ ok: false, problem });
  });

  it('refuses an address longer than 2048 characters in its stored form', () => {
    const path = 'a'.repeat(2048 - 'https://push.example.net/'.length);
    expect(accepted(`https://push.example.net/${path}`)).toEqual({
      ok: true,
      url: `https://push.example.net/${path}`,
    });
    expect(accepted(`https://push.example.net/${path}b`)).toEqual({ ok: false, problem: 'too_long' });
    // Three characters of text that the stored form writes as nine.
    expect(accepted(`https://push.example.net/${'a'.repeat(2000)}${'é'.repeat(6)}`)).toEqual({
      ok: false,
      problem: 'too_long',
    });
  });
});

describe('the loopback test receiver (PUSH_ALLOW_LOOPBACK_RECEIVER)', () => {
  it('lets through http on 127.0.0.1 or localhost with a port, and nothing else, only when on', () => {
    expect(accepted('http://127.0.0.1:8787/x', LOOPBACK_ON)).toEqual({ ok: true, url: 'http://127.0.0.1:8787/x' });
    expect(accepted('http://LOCALHOST.:8787/x', LOOPBACK_ON)).toEqual({ ok: true, url: 'http://localhost:8787/x' });
    expect(accepted('http://localhost:8787/x')).toEqual({ ok: false, problem: 'not_https' });
    for (const [text, problem] of [
      ['http://127.0.0.1/x', 'not_https'],
      ['http://192.168.1.10:8787/x', 'not_https'],
      ['http://push.example.net:8787/x', 'not_https'],
      ['https://localhost:8787/x', 'port'],
      ['https://localhost/x', 'private_name'],
      ['http://user:secret@127.0.0.1:8787/x', 'credentials'],
      ['http://127.0.0.1:8787/x#frag', 'fragment'],
    ] as const)
      expect(accepted(text, LOOPBACK_ON), text).toEqual({ ok: false, problem });
  });
});

describe('parseAddress, the lookup form', () => {
  it('gives every spelling the stored form, and any URL a form, allowed or not', () => {
    expect(parseAddress(' HTTPS://Push.Example.NET.:443/send/./abc')?.href).toBe('https://push.example.net/send/abc');
    expect(parseAddress('https://push.example.net/x#frag')?.href).toBe('https://push.example.net/x#frag');
    expect(parseAddress('http://LOCALHOST.:9/x')?.href).toBe('http://localhost:9/x');
    expect(parseAddress('not a url')).toBeUndefined();
  });
});
