import { answerReviewGet, answerReviewPost } from '../../src/server/review/review-page.ts';
import type { EdgeHandlers } from '../route-handler.ts';

/**
 * The review page of a draft (decisions.md, "Confirmed within a minute"; docs/watch.md, "The review page"): GET
 * shows it and changes nothing, POST (its own form) confirms, rejects or withdraws. The answers are
 * src/server/review/review-page.ts's, over the route's parsed id and query.
 */
export const REVIEW_HANDLERS = {
  getReviewPage: ({ env, request, now }, { params, query }) =>
    answerReviewGet({ env, request, now, draftId: params.id }, query),
  postReviewPage: ({ env, request, now }, { params }) => answerReviewPost({ env, request, now, draftId: params.id }),
} satisfies Partial<EdgeHandlers>;
