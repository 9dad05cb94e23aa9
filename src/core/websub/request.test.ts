import { describe, expect, it } from 'vitest';
import { DEFAULT_OUTBOUND_RULES } from '../outbound/address.ts';
import { parseWebSubForm } from './request.ts';
import { findTopic } from './topics.ts';

/**
 * `POST /websub`'s form (decisions.md, "WebSub"; WebSub §5.1). Expected values are written from the decision, not
 * computed by the code under test.
 */

const BASE = 'https://board.example';
const topics = (text: string) => findTopic(BASE, text)?.url;
const parse = (body: string, rules = DEFAULT_OUTBOUND_RULES) => parseWebSubForm(body, rules, topics);
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const GOOD = {
  'hub.mode': 'subscribe',
  'hub.topic': 'https://board.example/feed.xml?provider=provider_a',
  'hub.callback': 'https://reader.example/websub/cb?user=7',
};
const pathsOf = (body: string) => {
  const result = parse(body);
  expect(result.ok).toBe(false);
  return result.ok ? [] : result.issues.map((issue) => issue.path);
};

describe('the WebSub form', () => {
  it('takes the three fields, with a 10-day lease and no secret by default', () => {
    expect(parse(form(GOOD))).toEqual({
      ok: true,
      value: { ...GOOD, 'hub.lease_seconds': 864000 },
    });
  });

  it('keeps a lease and a secret, and writes the topic and callback in their standard forms', () => {
    const result = parse(
      form({
        'hub.mode': 'unsubscribe',
        'hub.topic': 'HTTPS://Board.Example/feed.json',
        'hub.callback': 'HTTPS://Reader.Example.:443/cb',
        'hub.lease_seconds': '2592000',
        'hub.secret': 'ß'.repeat(100),
      }),
    );
    expect(result).toEqual({
      ok: true,
      value: {
        'hub.mode': 'unsubscribe',
        'hub.topic': 'https://board.example/feed.json',
        'hub.callback': 'https://reader.example/cb',
        'hub.lease_seconds': 2592000,
        'hub.secret': 'ß'.repeat(100),
      },
    });
  });

  it('ignores fields it does not know (§5.1), and reads + as a space as forms do', () => {
    const result = parse(`${form(GOOD)}&hub.verify=sync&utm_source=x&hub.secret=a+b`);
    expect(result.ok && result.value['hub.secret']).toBe('a b');
  });

  it.each([
    ['no mode', { 'hub.mode': undefined }, ['hub.mode']],
    ['another mode', { 'hub.mode': 'publish' }, ['hub.mode']],
    ['no topic', { 'hub.topic': undefined }, ['hub.topic']],
    ['a topic that is no feed', { 'hub.topic': 'https://board.example/api/status' }, ['hub.topic']],
    ['a feed of another site', { 'hub.topic': 'https://elsewhere.example/feed.xml' }, ['hub.topic']],
    ['no callback', { 'hub.callback': undefined }, ['hub.callback']],
    ['an http callback', { 'hub.callback': 'http://reader.example/cb' }, ['hub.callback']],
    ['a callback on a private name', { 'hub.callback': 'https://router.lan/cb' }, ['hub.callback']],
    ['a callback on an IP address', { 'hub.callback': 'https://10.0.0.7/cb' }, ['hub.callback']],
    ['a callback with a fragment', { 'hub.callback': 'https://reader.example/cb#x' }, ['hub.callback']],
    ['a callback on another port', { 'hub.callback': 'https://reader.example:8443/cb' }, ['hub.callback']],
    ['the loopback receiver while the setting is off', { 'hub.callback': 'http://127.0.0.1:9/cb' }, ['hub.callback']],
    ['a lease of 0', { 'hub.lease_seconds': '0' }, ['hub.lease_seconds']],
    ['a lease over 30 days', { 'hub.lease_seconds': '2592001' }, ['hub.lease_seconds']],
    ['a lease that is no plain integer', { 'hub.lease_seconds': '1e5' }, ['hub.lease_seconds']],
    ['an empty secret', { 'hub.secret': '' }, ['hub.secret']],
    ['a secret of 201 bytes', { 'hub.secret': 'x'.repeat(201) }, ['hub.secret']],
    ['a secret of 101 two-byte characters', { 'hub.secret': 'ß'.repeat(101) }, ['hub.secret']],
  ])('refuses %s', (_name, change, path) => {
    const fields = Object.fromEntries(
      Object.entries({ ...GOOD, ...change }).filter((entry): entry is [string, string] => entry[1] !== undefined),
    );
    expect(pathsOf(form(fields))).toEqual([path]);
  });

  it('refuses a field given twice, and says every problem at once', () => {
    expect(pathsOf(`${form(GOOD)}&hub.mode=unsubscribe`)).toEqual([['hub.mode']]);
    expect(pathsOf('hub.mode=x&hub.secret=')).toEqual([['hub.mode'], ['hub.topic'], ['hub.callback'], ['hub.secret']]);
  });

  it('lets the loopback test receiver through only when the setting is on', () => {
    const body = form({ ...GOOD, 'hub.callback': 'http://127.0.0.1:9/cb' });
    expect(parse(body).ok).toBe(false);
    expect(parse(body, { allowLoopbackReceiver: true })).toMatchObject({
      ok: true,
      value: { 'hub.callback': 'http://127.0.0.1:9/cb' },
    });
  });
});
