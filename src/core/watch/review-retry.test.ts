import { describe, expect, it } from 'vitest';
import { reviewFailureText, reviewRetryMs } from './review-retry.ts';

const MINUTE = 60_000;

describe('reviewRetryMs: the wait before a review message that was not sent is tried again', () => {
  it('doubles from one minute and stays at 30 minutes, with no last try', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 50, 1000].map((failures) => reviewRetryMs(failures) / MINUTE)).toEqual([
      1, 2, 4, 8, 16, 30, 30, 30, 30, 30,
    ]);
  });

  it('honours the wait the platform asked for, up to the same 30 minutes', () => {
    expect(reviewRetryMs(1, 120)).toBe(2 * MINUTE);
    expect(reviewRetryMs(5, 3)).toBe(3000);
    expect(reviewRetryMs(1, 0)).toBe(0);
    expect(reviewRetryMs(1, 7200)).toBe(30 * MINUTE);
  });
});

describe('reviewFailureText: what a failed try stores and logs', () => {
  const webhook = 'https://discord.com/api/webhooks/123/secret-token';

  it('is the status when the platform answered', () => {
    expect(reviewFailureText(404, 'answered HTTP 404', webhook)).toBe('answered HTTP 404');
  });

  it('keeps why nothing answered, without the webhook’s address or its path', () => {
    expect(reviewFailureText(0, 'could not be reached (Network connection lost.)', webhook)).toBe(
      'could not be reached (Network connection lost.)',
    );
    expect(reviewFailureText(0, `could not be reached (fetch to ${webhook} failed)`, webhook)).toBe(
      'could not be reached (fetch to <REVIEW_WEBHOOK_URL> failed)',
    );
    expect(reviewFailureText(0, 'could not be reached (POST /api/webhooks/123/secret-token)', webhook)).toBe(
      'could not be reached (POST <REVIEW_WEBHOOK_URL>)',
    );
  });
});
