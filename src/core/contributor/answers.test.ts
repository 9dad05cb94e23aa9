import { describe, expect, it } from 'vitest';
import { makeEvent, NOW } from '../test-events.ts';
import { validateEventFiles } from '../content/validate-event-files.ts';
import {
  checkAccount,
  checkAnnouncedAt,
  checkAudience,
  checkEffectiveAt,
  checkScope,
  checkSourceUrl,
  checkSummary,
  checkTimestamp,
} from './answers.ts';

describe('checkTimestamp', () => {
  it('gives UTC with milliseconds for a real date with an offset', () => {
    expect(checkTimestamp('2026-11-20T09:30:00-05:00')).toEqual({ ok: true, value: '2026-11-20T14:30:00.000Z' });
    expect(checkTimestamp('2028-02-29T00:00Z')).toEqual({ ok: true, value: '2028-02-29T00:00:00.000Z' });
  });

  // Written out by hand, not computed: the days of each month of 2026 (not a leap year).
  const DAYS_2026 = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  it.each(DAYS_2026.map((days, index) => [String(index + 1).padStart(2, '0'), days] as const))(
    'month %s: the last day is a date, the one after is not',
    (month, days) => {
      expect(checkTimestamp(`2026-${month}-${days}T12:00:00Z`).ok).toBe(true);
      const next = checkTimestamp(`2026-${month}-${days + 1}T12:00:00Z`);
      expect(next.ok).toBe(false);
      if (!next.ok) expect(next.message).toContain(`has ${days} days`);
    },
  );

  it.each([
    '2026-02-30T10:00:00Z',
    '2026-13-01T10:00:00Z',
    '2026-04-01T24:00:00Z',
    '2026-04-01T10:60:00Z',
    '2026-04-01T10:00:00+15:00',
    '2026-04-01T10:00:00',
    'tomorrow',
    '',
  ])('refuses %j', (answer) => expect(checkTimestamp(answer).ok).toBe(false));
});

describe('checkAnnouncedAt and checkEffectiveAt', () => {
  const now = new Date('2026-11-21T10:00:00.000Z');

  it('takes a time up to now, and refuses a later one, saying how it read it', () => {
    expect(checkAnnouncedAt('2026-11-21T18:00:00+08:00', now)).toEqual({ ok: true, value: '2026-11-21T10:00:00.000Z' });
    expect(checkAnnouncedAt('2026-11-21T18:01:00+08:00', now)).toEqual({
      ok: false,
      message:
        'is in the future (now is 2026-11-21T10:00:00.000Z); it reads as 2026-11-21T10:01:00.000Z: check the time and its offset',
    });
    // The local time typed with Z instead of its offset: eight hours ahead.
    expect(checkAnnouncedAt('2026-11-21T17:30:00Z', now).ok).toBe(false);
  });

  it('an impossible time is refused as such, before any comparison', () => {
    const refused = checkAnnouncedAt('2026-02-30T09:30:00Z', now);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.message).toMatch(/^is not a real date-time: .*February 2026 has 28 days/);
  });

  it('an effective time must come after the announcement, when that is known', () => {
    const announced = '2026-11-20T08:00:00.000Z';
    expect(checkEffectiveAt('2026-11-20T16:00:01+08:00', announced)).toEqual({
      ok: true,
      value: '2026-11-20T08:00:01.000Z',
    });
    expect(checkEffectiveAt('2026-11-20T16:00:00+08:00', announced)).toEqual({
      ok: false,
      message:
        'must be later than announcedAt (2026-11-20T08:00:00.000Z); leave it empty when the post names no later time',
    });
    expect(checkEffectiveAt('2026-11-19T00:00:00Z', undefined).ok).toBe(true);
    expect(checkEffectiveAt('2026-11-31T00:00:00Z', announced).ok).toBe(false);
  });
});

describe('the other answers', () => {
  it('a summary of 280 characters fits, 281 does not, counted in characters not UTF-16 units', () => {
    expect(checkSummary('重'.repeat(280)).ok).toBe(true);
    expect(checkSummary('😀'.repeat(280)).ok).toBe(true);
    expect(checkSummary('x'.repeat(281))).toEqual({ ok: false, message: 'is 281 characters; the limit is 280' });
    expect(checkSummary('   ').ok).toBe(false);
  });

  it('an empty scope is global; a plan name is lower-case', () => {
    expect(checkScope('')).toEqual({ ok: true, value: 'global' });
    expect(checkScope('plan:pro').ok).toBe(true);
    expect(checkScope('plan:Pro').ok).toBe(false);
  });

  it('the audience is a comma-separated list; empty is nobody in particular', () => {
    expect(checkAudience(' pro , team,')).toEqual({ ok: true, value: ['pro', 'team'] });
    expect(checkAudience('')).toEqual({ ok: true, value: [] });
    expect(checkAudience('x'.repeat(101)).ok).toBe(false);
  });
});

describe('characters no text field may hold (src/core/content/unsafe-characters.ts)', () => {
  /** What `npm run validate` says of the same text in a file, to compare with the answer's message. */
  const validatorMessage = (fields: Record<string, unknown>) => {
    const event = { ...makeEvent({ id: 'x', announcedAt: '2026-06-01T00:00:00.000Z' }), ...fields };
    return validateEventFiles([{ path: 'provider_a/x.json', text: JSON.stringify(event) }], NOW).problems.map(
      (problem) => problem.message,
    );
  };

  it('refuses them in each answer with the message validation gives the file', () => {
    const summary = checkSummary('Limits reset\uFFFF for everyone.');
    expect(summary).toEqual({
      ok: false,
      message: 'holds U+FFFF (a noncharacter) at character 13, after "Limits reset"',
    });
    expect(validatorMessage({ summary: 'Limits reset\uFFFF for everyone.' })).toEqual([
      (summary as { message: string }).message,
    ]);

    const account = checkAccount('@\u202Emaet_a_redivorp');
    expect(account).toEqual({
      ok: false,
      message: 'holds U+202E (a bidirectional embedding or override) at character 1, the first',
    });
    expect(validatorMessage({ sourceAccount: '\u202Emaet_a_redivorp' })).toEqual([
      (account as { message: string }).message,
    ]);

    expect(checkAccount('provider_a\u0000\u001B[31m')).toEqual({
      ok: false,
      message: 'holds U+0000 (a control character) at character 11, after "provider_a" (and 1 more such character)',
    });
    expect(checkSourceUrl('https://posts.provider-a.example/1\u2066')).toEqual({
      ok: false,
      message: 'holds U+2066 (a bidirectional isolate) at character 35, after "-a.example/1"',
    });
    expect(checkAudience('pro, te\u0085am')).toEqual({
      ok: false,
      message: 'entry 2 holds U+0085 (a control character) at character 3, after "te"',
    });
  });

  it('keeps what is allowed: line breaks and bidirectional marks in a summary, right-to-left names', () => {
    expect(checkSummary('Line one\nline two \u200F')).toEqual({ ok: true, value: 'Line one\nline two \u200F' });
    expect(checkAccount('حساب')).toEqual({ ok: true, value: 'حساب' });
  });
});
