import { describe, expect, it } from 'vitest';
import { makeEvent } from '../test-events.ts';
import { encodePayload, PUSH_PAYLOAD_MAX_BYTES, pushPayload } from './payload.ts';

const BASE = 'https://board.example';

describe('pushPayload', () => {
  const plain = makeEvent({
    id: 'a-1',
    provider: 'provider_b',
    kind: 'boost',
    announcedAt: '2026-06-15T08:00:00.000Z',
    summary: 'Limits doubled this weekend.',
  });
  const pending = makeEvent({
    id: 'r-9',
    provider: 'provider_a',
    kind: 'reset',
    announcedAt: '2026-06-15T08:00:00.000Z',
    effectiveAt: '2026-06-15T10:30:00.000Z',
    summary: 'Resetting all limits at 10:30 UTC.',
  });

  it('says a plain announcement in English, every field as decided', () => {
    expect(pushPayload(plain, 'announced', 'en', BASE)).toStrictEqual({
      title: 'Provider B: Limit boost',
      body: 'Limits doubled this weekend.',
      url: 'https://board.example/provider_b#event-a-1',
      tag: 'provider_b-boost',
      eventId: 'a-1',
      provider: 'provider_b',
      kind: 'boost',
      transition: 'announced',
    });
  });

  it('says a plain announcement in Chinese', () => {
    const payload = pushPayload(plain, 'announced', 'zh', `${BASE}/`);
    expect(payload.title).toBe('供应商 B：额度提升');
    expect(payload.body).toBe('Limits doubled this weekend.');
    expect(payload.url).toBe('https://board.example/provider_b#event-a-1');
  });

  it('tells a scheduled reset its time, and then that it is in effect, in both languages', () => {
    expect(pushPayload(pending, 'announced', 'en', BASE)).toMatchObject({
      title: 'Provider A: Reset scheduled',
      body: 'Scheduled for 2026-06-15 10:30 UTC. Resetting all limits at 10:30 UTC.',
      tag: 'provider_a-reset',
      transition: 'announced',
    });
    expect(pushPayload(pending, 'effective', 'en', BASE)).toMatchObject({
      title: 'Provider A: Reset now',
      body: 'In effect since 2026-06-15 10:30 UTC. Resetting all limits at 10:30 UTC.',
      transition: 'effective',
    });
    expect(pushPayload(pending, 'announced', 'zh', BASE)).toMatchObject({
      title: '供应商 A：重置已排定',
      body: '定于 2026年6月15日 10:30（UTC）。Resetting all limits at 10:30 UTC.',
    });
    expect(pushPayload(pending, 'effective', 'zh', BASE)).toMatchObject({
      title: '供应商 A：重置已生效',
      body: '自 2026年6月15日 10:30（UTC）起生效。Resetting all limits at 10:30 UTC.',
    });
  });

  it('stays under 3 KB with the longest summary of the widest characters and the longest id', () => {
    const widest = makeEvent({
      id: `x${'y'.repeat(127)}`,
      summary: '😀'.repeat(280),
      effectiveAt: '2026-06-20T00:00:00.000Z',
      announcedAt: '2026-06-15T00:00:00.000Z',
    });
    for (const locale of ['en', 'zh'] as const) {
      for (const transition of ['announced', 'effective'] as const) {
        const bytes = new TextEncoder().encode(encodePayload(pushPayload(widest, transition, locale, BASE))).length;
        expect(bytes).toBeLessThan(PUSH_PAYLOAD_MAX_BYTES);
      }
    }
  });
});
