import { z } from 'zod';
import { EventKindSchema } from '../enums.ts';

/**
 * What the review page (`/review/<draft id>`, page.ts; docs/watch.md, "The review page") takes: its query and its
 * form, described here once for the route table and the OpenAPI document, free of words.
 */

export const REVIEW_ACTIONS = ['confirm', 'reject', 'withdraw'] as const;
export type ReviewAction = (typeof REVIEW_ACTIONS)[number];

/** `GET /review/<id>`'s query: the link's token, and the language asked for. */
export const ReviewQuerySchema = z.object({
  t: z.string().describe('the review link’s token: `<expiry, seconds since 1970>.<base64url HMAC-SHA256>`'),
  lang: z.string().optional().describe('the page’s language, `en` or `zh`; otherwise the first of Accept-Language'),
});

/** `POST /review/<id>`'s form: the token, the action, the edited fields (confirm) and the language. */
export const ReviewFormSchema = z.object({
  t: z.string().describe('the review link’s token'),
  action: z.enum(REVIEW_ACTIONS).describe('confirm (with the edits), reject, or withdraw a confirmed event'),
  kind: EventKindSchema.optional(),
  scope: z.string().optional().describe('`global` or `plan:<plan_name>`'),
  effectiveAt: z.string().optional().describe('a UTC time with milliseconds, or empty for none'),
  lang: z.string().optional().describe('the page’s language, `en` or `zh`'),
});

/** The largest form the page takes: its own is well under 2 KiB, whatever the draft. */
export const REVIEW_FORM_MAX_BYTES = 16 * 1024;

/** The route's path template: the draft's id is its event's id. */
export const REVIEW_PAGE_ROUTE = '/review/{id}';
