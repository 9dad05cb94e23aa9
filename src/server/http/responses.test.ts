import { describe, expect, it } from 'vitest';
import type { QueryIssue } from '../../core/api/query.ts';
import { ErrorBodySchema } from '../../core/schemas.ts';
import { invalidQuery, invalidRequest, pushUnavailable } from './responses.ts';

/** The shared error builder: every error body with issues is capped, whichever error it is. */

const issues = (count: number): QueryIssue[] =>
  Array.from({ length: count }, (_, index) => ({ code: 'custom', path: ['tz', index], message: 'bad' }));

describe('error bodies', () => {
  it.each([
    ['invalid_query', invalidQuery(issues(45))],
    ['invalid_request', invalidRequest(issues(45))],
    ['invalid_request (415)', invalidRequest(issues(45), 415)],
  ])('%s lists at most 20 issues and one saying how many more', async (_name, response) => {
    const body = (await response.json()) as { issues: QueryIssue[] };
    expect(body.issues).toHaveLength(21);
    expect(body.issues.slice(0, 20)).toEqual(issues(20));
    expect(body.issues[20]).toEqual({
      code: 'too_many_issues',
      path: [],
      message: '25 more issues not listed: fix these and send again',
    });
    expect(ErrorBodySchema.safeParse(body).success).toBe(true);
  });

  it('the schema of error bodies (and so the OpenAPI document) allows no longer list', () => {
    expect(ErrorBodySchema.safeParse({ error: 'invalid_query', issues: issues(21) }).success).toBe(true);
    expect(ErrorBodySchema.safeParse({ error: 'invalid_query', issues: issues(22) }).success).toBe(false);
  });

  it('push_unavailable says when to retry only when asked to (a write), in whole seconds', () => {
    expect(pushUnavailable(30).headers.get('Retry-After')).toBe('30');
    expect(pushUnavailable().headers.get('Retry-After')).toBeNull();
  });
});
