import { describe, expect, it } from 'vitest';
import { capIssues } from './issue-cap.ts';
import type { QueryIssue } from './query.ts';

const issues = (count: number): QueryIssue[] =>
  Array.from({ length: count }, (_, index) => ({ code: 'invalid_value', path: ['providers', index], message: 'bad' }));

describe('capIssues', () => {
  it('keeps 20 issues or fewer as they are', () => {
    expect(capIssues([])).toEqual([]);
    expect(capIssues(issues(20))).toEqual(issues(20));
  });

  it('lists the first 20 and says how many more there were', () => {
    expect(capIssues(issues(21))).toEqual([
      ...issues(20),
      { code: 'too_many_issues', path: [], message: '1 more issue not listed: fix these and send again' },
    ]);
    const capped = capIssues(issues(300));
    expect(capped).toHaveLength(21);
    expect(capped.at(-1)).toEqual({
      code: 'too_many_issues',
      path: [],
      message: '280 more issues not listed: fix these and send again',
    });
  });
});
