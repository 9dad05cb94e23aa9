import { describe, expect, it } from 'vitest';
import { makeEvent } from '../test-events.ts';
import {
  activationPage,
  ntfyActivationMessage,
  ntfyActivationUrl,
  ntfyMessage,
  ntfyRequestSchema,
  ntfyServerRoot,
  ntfyTopicName,
} from './ntfy.ts';

/**
 * ntfy's messages and write body, held to ntfy's publishing documents (JSON to the server root: `topic` a name,
 * `title`, `message`, `tags` an array, `priority` 1–5 with 4 `high`, `click` a URL, `actions` of `view` with
 * `label` and `url`) and to words written out here by hand.
 */

const BASE = 'https://board.example';
const event = makeEvent({
  id: 'e-ntfy-1',
  provider: 'provider_b',
  kind: 'reset',
  announcedAt: '2026-06-15T10:00:00.000Z',
  effectiveAt: '2026-06-15T12:30:00.000Z',
  summary: 'Limits reset for everyone.',
});

describe('ntfyMessage', () => {
  it('an announced reset in English: high priority, tags, and the event’s anchor', () => {
    expect(ntfyMessage('my-topic', event, 'announced', 'en', BASE)).toEqual({
      topic: 'my-topic',
      title: 'Provider B: Reset scheduled',
      message: 'Scheduled for 2026-06-15 12:30 UTC. Limits reset for everyone.',
      tags: ['arrows_counterclockwise', 'provider_b', 'reset'],
      priority: 4,
      click: 'https://board.example/provider_b#event-e-ntfy-1',
    });
  });

  it('a reset taking effect, in Chinese: the Chinese page and full-width punctuation', () => {
    expect(ntfyMessage('my-topic', event, 'effective', 'zh', `${BASE}/`)).toEqual({
      topic: 'my-topic',
      title: '供应商 B：重置已生效',
      message: '自 2026年6月15日 12:30（UTC）起生效。Limits reset for everyone.',
      tags: ['arrows_counterclockwise', 'provider_b', 'reset'],
      priority: 4,
      click: 'https://board.example/zh/provider_b#event-e-ntfy-1',
    });
  });

  it('another kind is the default priority', () => {
    const promo = makeEvent({ id: 'e-ntfy-2', provider: 'provider_a', kind: 'promo', summary: 'Double limits.' });
    const message = ntfyMessage('t', promo, 'announced', 'en', BASE);
    expect(message.priority).toBe(3);
    expect(message.tags).toEqual(['loudspeaker', 'provider_a', 'promo']);
    expect(message.message).toBe('Double limits.');
  });
});

describe('the activation message and page', () => {
  const url = ntfyActivationUrl(BASE, 'https://ntfy.sh/my-topic', 'A'.repeat(43));
  it('links to the activation page with the topic and token', () => {
    expect(url).toBe(`${BASE}/api/ntfy/activate?topic=https%3A%2F%2Fntfy.sh%2Fmy-topic&token=${'A'.repeat(43)}`);
  });

  it('says what will be sent, in each language, with a view action', () => {
    const choices = { providers: ['provider_a', 'provider_c'] as const, kinds: ['reset'] as const };
    const english = ntfyActivationMessage('my-topic', choices, 'en', url);
    expect(english).toEqual({
      topic: 'my-topic',
      title: 'Activate Departures Board notifications',
      message: `Someone asked to send Departures Board announcements to this topic. What will be sent: each new announcement of Provider A, Provider C (Reset). Nothing is sent until this link is opened and confirmed: ${url}`,
      tags: ['bell'],
      priority: 3,
      click: url,
      actions: [{ action: 'view', label: 'Activate', url }],
    });
    const chinese = ntfyActivationMessage('my-topic', choices, 'zh', url);
    expect(chinese.title).toBe('激活 Departures Board 通知');
    expect(chinese.message).toBe(
      `有人请求将 Departures Board 的公告发送到此主题。将发送：供应商 A、供应商 C 的每条新公告（重置）。打开并确认此链接之前，不会发送任何内容：${url}`,
    );
  });

  it('the page asks with a POST button and escapes what it shows', () => {
    const html = activationPage('ask', 'en', {
      topic: 'https://ntfy.example/a"b<c',
      token: 'T'.repeat(43),
      choices: { providers: ['provider_a'], kinds: ['reset'] },
    });
    expect(html).toContain(
      '<form method="post" action="/api/ntfy/activate?topic=https%3A%2F%2Fntfy.example%2Fa%22b%3Cc&amp;token=',
    );
    expect(html).toContain('Send announcements to the ntfy topic https://ntfy.example/a&quot;b&lt;c?');
    expect(html).not.toContain('<script');
    expect(activationPage('activated', 'zh')).toContain('已激活：新公告将发送到此主题。');
    expect(activationPage('unknown', 'en')).toContain('This activation link is not valid any more.');
  });
});

describe('POST /api/ntfy body', () => {
  const schema = ntfyRequestSchema({ allowLoopbackReceiver: false });
  const body = (topic: string) => ({ topic, providers: ['provider_a'] });

  it('takes a topic URL in its stored form, with push’s defaults', () => {
    expect(schema.parse(body('HTTPS://NTFY.sh.:443/My_Topic-1'))).toEqual({
      topic: 'https://ntfy.sh/My_Topic-1',
      providers: ['provider_a'],
      kinds: ['reset'],
      locale: 'en',
    });
    expect(schema.parse(body('https://push.example.org/alerts')).topic).toBe('https://push.example.org/alerts');
  });

  it.each([
    ['no topic name', 'https://ntfy.sh/'],
    ['two path segments', 'https://ntfy.sh/a/b'],
    ['a query', 'https://ntfy.sh/topic?x=1'],
    ['a name with a dot', 'https://ntfy.sh/my.topic'],
    ['a name over 64 characters', `https://ntfy.sh/${'a'.repeat(65)}`],
  ])('refuses %s, saying what a topic URL is', (_name, topic) => {
    const issues = schema.safeParse(body(topic)).error?.issues ?? [];
    expect(issues.map((issue) => [issue.path, issue.message])).toEqual([
      [
        ['topic'],
        'must be an ntfy topic URL: the server and one topic name, such as https://ntfy.sh/my-topic (letters, digits, _ and -, at most 64)',
      ],
    ]);
  });

  it.each([
    ['http', 'http://ntfy.sh/topic'],
    ['a loopback address', 'https://127.0.0.1/topic'],
    ['a private name', 'https://ntfy.local/topic'],
    ['another port', 'https://ntfy.sh:8443/topic'],
  ])('refuses %s by the outbound-address rules, one issue', (_name, topic) => {
    const issues = schema.safeParse(body(topic)).error?.issues ?? [];
    expect(issues).toHaveLength(1);
    expect(issues[0]!.path).toEqual(['topic']);
  });

  it('takes a loopback receiver only under the test switch', () => {
    const loopback = ntfyRequestSchema({ allowLoopbackReceiver: true });
    expect(loopback.parse(body('http://127.0.0.1:8123/t1')).topic).toBe('http://127.0.0.1:8123/t1');
    expect(schema.safeParse(body('http://127.0.0.1:8123/t1')).success).toBe(false);
  });

  it('names the topic and its server root', () => {
    expect(ntfyTopicName('https://ntfy.sh/abc')).toBe('abc');
    expect(ntfyServerRoot('https://ntfy.sh/abc')).toBe('https://ntfy.sh/');
    expect(ntfyServerRoot('http://127.0.0.1:8123/abc')).toBe('http://127.0.0.1:8123/');
  });
});
