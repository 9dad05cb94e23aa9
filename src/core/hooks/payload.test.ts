import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { DEFAULT_OUTBOUND_RULES } from '../outbound/address.ts';
import type { Event } from '../schemas.ts';
import { hookHeaders, hookPayload, hookRequestSchema, newHookSecret, sameSecret, signingInput } from './payload.ts';

/**
 * The signed webhooks' payload and signature (decisions.md, "More channels"; the Standard Webhooks specification).
 * Signatures are checked with the specification's reference library for JavaScript (`standardwebhooks`), never
 * with a verifier of this project's. Expected values are written from the decision.
 */

const BASE = 'https://board.example';
const event: Event = {
  id: 'hook-reset',
  provider: 'provider_a',
  kind: 'reset',
  scope: 'global',
  announcedAt: '2026-11-20T10:00:00Z',
  effectiveAt: '2026-11-20T12:00:00Z',
  sourceUrl: 'https://posts.provider-a.example/hook-reset',
  sourceAccount: 'provider_a_team',
  summary: 'Limits reset for everyone at noon.',
  audience: [],
  verified: true,
};

describe('the payload', () => {
  it('is event.published with the announcement time and the event with its page', () => {
    expect(hookPayload(event, 'announced', BASE)).toEqual({
      type: 'event.published',
      timestamp: '2026-11-20T10:00:00.000Z',
      data: { ...event, pageUrl: 'https://board.example/provider_a#event-hook-reset' },
    });
  });

  it('is reset.effective with the moment it takes effect', () => {
    const payload = hookPayload(event, 'effective', BASE);
    expect(payload.type).toBe('reset.effective');
    expect(payload.timestamp).toBe('2026-11-20T12:00:00.000Z');
    expect(payload.data.pageUrl).toBe('https://board.example/provider_a#event-hook-reset');
  });
});

describe('the signature', () => {
  it('signs "<id>.<timestamp>.<body>"', () => {
    expect(signingInput('hook-reset/announced', 1_700_000_000, '{"a":1}')).toBe(
      'hook-reset/announced.1700000000.{"a":1}',
    );
  });

  it('is verified by the Standard Webhooks reference library, and refused with another secret or body', async () => {
    const secret = newHookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const body = JSON.stringify(hookPayload(event, 'announced', BASE));
    const headers = await hookHeaders(secret, 'hook-reset/announced', new Date(), body);
    expect(headers['webhook-id']).toBe('hook-reset/announced');
    expect(headers['webhook-timestamp']).toMatch(/^\d{10}$/);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newHookSecret()).verify(body, headers)).toThrow(WebhookVerificationError);
    expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow(WebhookVerificationError);
  });

  it('equals the reference library’s own signature of the same message', async () => {
    const secret = newHookSecret();
    const sentAt = new Date(Math.floor(Date.now() / 1000) * 1000);
    const headers = await hookHeaders(secret, 'msg-1', sentAt, '{"x":"é"}');
    expect(headers['webhook-signature']).toBe(new Webhook(secret).sign('msg-1', sentAt, '{"x":"é"}'));
  });
});

describe('the write body and the secret', () => {
  const schema = hookRequestSchema(DEFAULT_OUTBOUND_RULES);
  it('takes a public https URL in its stored form, and the topics (kinds default to resets)', () => {
    expect(schema.parse({ url: 'HTTPS://Hooks.Example.COM/in', providers: ['provider_a'] })).toEqual({
      url: 'https://hooks.example.com/in',
      providers: ['provider_a'],
      kinds: ['reset'],
    });
  });
  it('refuses http, loopback and private names', () => {
    for (const url of [
      'http://hooks.example.com/in',
      'https://127.0.0.1/in',
      'https://localhost/in',
      'https://nas.lan/',
    ])
      expect(schema.safeParse({ url, providers: ['provider_a'] }).success, url).toBe(false);
  });
  it('compares secrets whole', () => {
    expect(sameSecret('whsec_abc', 'whsec_abc')).toBe(true);
    expect(sameSecret('whsec_abc', 'whsec_abd')).toBe(false);
    expect(sameSecret('whsec_abc', 'whsec_ab')).toBe(false);
  });
});
