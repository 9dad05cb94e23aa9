import type { QueryIssue } from './query.ts';

/**
 * An error body lists at most this many issues, then one that says how many more there were. A 4 KiB body can name
 * hundreds of bad values (300 unknown providers made a 41 KB answer): the client needs the first few to fix its
 * request, and an error must not cost ten times the request that caused it.
 */
export const MAX_LISTED_ISSUES = 20;

/** `issues` as an error body carries them: the first MAX_LISTED_ISSUES, then `too_many_issues` counting the rest. */
export function capIssues(issues: readonly QueryIssue[]): QueryIssue[] {
  if (issues.length <= MAX_LISTED_ISSUES) return [...issues];
  const more = issues.length - MAX_LISTED_ISSUES;
  return [
    ...issues.slice(0, MAX_LISTED_ISSUES),
    {
      code: 'too_many_issues',
      path: [],
      message: `${more} more ${more === 1 ? 'issue' : 'issues'} not listed: fix these and send again`,
    },
  ];
}
