import { describe, expect, it } from 'vitest';
import { BACKOFF_MAX_MS, backoffMs, FIRST_POLL, pollVerdict, validatorHeaders } from './poll-state.ts';

const MINUTE = 60_000;
const AT = new Date('2026-06-15T12:00:00.000Z');
const minutes = (count: number) => new Date(AT.getTime() + count * MINUTE);

describe('polite polling', () => {
  it('waits 2, 4, 8, 16 and then 30 minutes after 1, 2, 3, 4 and more failures in a row', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 50].map((failures) => backoffMs(failures) / MINUTE)).toEqual([
      0, 2, 4, 8, 16, 30, 30, 30,
    ]);
    expect(BACKOFF_MAX_MS).toBe(30 * MINUTE);
  });

  it('asks a source never asked, and asks each source at most once a minute', () => {
    expect(pollVerdict(FIRST_POLL, AT)).toEqual({ due: true });
    const asked = { ...FIRST_POLL, polledAt: AT.toISOString() };
    expect(pollVerdict(asked, AT)).toEqual({
      due: false,
      reason: 'asked_this_minute',
      until: minutes(1).toISOString(),
    });
    expect(pollVerdict(asked, new Date(minutes(1).getTime() - 1)).due).toBe(false);
    expect(pollVerdict(asked, minutes(1))).toEqual({ due: true });
  });

  it('leaves a failing source alone until its backoff ends', () => {
    const failing = { ...FIRST_POLL, polledAt: AT.toISOString(), failures: 1, retryAt: minutes(2).toISOString() };
    expect(pollVerdict(failing, minutes(1))).toEqual({
      due: false,
      reason: 'backing_off',
      until: minutes(2).toISOString(),
    });
    expect(pollVerdict(failing, minutes(2))).toEqual({ due: true });
  });

  it('sends the validators of the last answer, and none before there was one', () => {
    expect(validatorHeaders(FIRST_POLL)).toEqual({});
    expect(validatorHeaders({ ...FIRST_POLL, etag: '"v1"' })).toEqual({ 'If-None-Match': '"v1"' });
    expect(validatorHeaders({ ...FIRST_POLL, etag: 'W/"v2"', lastModified: 'Mon, 15 Jun 2026 11:00:00 GMT' })).toEqual({
      'If-None-Match': 'W/"v2"',
      'If-Modified-Since': 'Mon, 15 Jun 2026 11:00:00 GMT',
    });
  });
});
