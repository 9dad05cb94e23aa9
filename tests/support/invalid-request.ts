import { expect } from 'vitest';

/** One issue of a `400 invalid_request` answer (decisions.md, the write paths' errors). */
export interface RequestIssue {
  code: string;
  path: (string | number)[];
  message: string;
}

/** Checks that `response` is a `400 invalid_request` naming at least one issue, and gives its issues. */
export async function issuesOf(response: Response | undefined): Promise<RequestIssue[]> {
  expect(response?.status).toBe(400);
  const body = (await response!.json()) as { error: string; issues: RequestIssue[] };
  expect(body.error).toBe('invalid_request');
  expect(body.issues.length).toBeGreaterThan(0);
  return body.issues;
}
