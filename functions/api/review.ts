import type { EdgeHandlers } from '../route-handler.ts';

/**
 * The review page of a draft (decisions.md, "Confirmed within a minute"; docs/watch.md, "The review page"): GET
 * shows it and changes nothing, POST (its own form) confirms, rejects or withdraws. The answers are
 * src/server/review/review-page.ts's, over the route's parsed id and query, loaded by the page's first request: an
 * isolate that never serves it never evaluates the page, the decisions or the commit to git (docs/performance.md,
 * "The cold start").
 */
const reviewPage = () => import('../../src/server/review/review-page.ts');

export const REVIEW_HANDLERS = {
  getReviewPage: async ({ env, request, now }, { params, query }) =>
    (await reviewPage()).answerReviewGet({ env, request, now, draftId: params.id }, query),
  postReviewPage: async ({ env, request, now, waitUntil }, { params }) =>
    (await reviewPage()).answerReviewPost({ env, request, now, draftId: params.id, waitUntil }),
} satisfies Partial<EdgeHandlers>;
