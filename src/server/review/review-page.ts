import { readRequestBody } from '@modelcontextprotocol/sdk/server/requestBody.js';
import { REVIEW_ACTIONS, REVIEW_FORM_MAX_BYTES, type ReviewAction } from '../../core/review/form.ts';
import {
  chooseReviewLocale,
  editedEvent,
  editsOf,
  REVIEW_PAGE_STYLE,
  type ReviewOutcome,
  type ReviewView,
  renderReviewPage,
  reviewPageSecurityPolicy,
} from '../../core/review/page.ts';
import { reviewTokenExpiry, verifyReviewToken } from '../../core/review/token.ts';
import { CONTENT_TYPES } from '../../core/routes/policy.ts';
import { type Event, EventSchema } from '../../core/schemas.ts';
import type { Locale } from '../../core/vocabulary.ts';
import { isFormBody } from '../http/request.ts';
import { CONTENT_SECURITY_POLICY } from '../http/security-headers.ts';
import { confirmDraft, type DecisionBindings, rejectDraft } from '../journal/decide.ts';
import { journalMisfit } from '../journal/fit.ts';
import { commitConfirmed, type GitCommitBindings } from '../journal/git-commit.ts';
import { type JournalEntry, readJournalEntry, withdrawLive } from '../journal/store.ts';

/**
 * The review page's answers (decisions.md, "Confirmed within a minute"; docs/watch.md, "The review page"): which
 * view of src/core/review/page.ts a request gets, from the draft in D1, its token and, once decided, its journal
 * entry. GET only reads; POST decides once (journal/decide.ts) and answers 303 to the page, which shows the outcome.
 * Every refusal is a page that says which and what to do.
 */

export interface ReviewBindings extends Partial<DecisionBindings>, Omit<GitCommitBindings, 'DB'> {
  /** The secret the review links' tokens are signed with; without it there are no review links. */
  REVIEW_SIGNING_KEY?: string;
}

/** What the page's headers say beside its body: never kept, never indexed, never a referrer to the post. */
const PAGE_HEADERS = {
  'Content-Type': CONTENT_TYPES.html,
  'Cache-Control': 'no-store',
  'X-Robots-Tag': 'noindex',
  'Referrer-Policy': 'no-referrer',
} as const;

let styleHash: Promise<string> | undefined;
/** The base64 SHA-256 of the page's style, once per isolate: the page's policy allows that style alone. */
const styleHashOnce = (): Promise<string> => {
  styleHash ??= crypto.subtle
    .digest('SHA-256', new TextEncoder().encode(REVIEW_PAGE_STYLE))
    .then((digest) => btoa(String.fromCharCode(...new Uint8Array(digest))));
  return styleHash;
};

async function page(view: ReviewView, locale: Locale, status: number): Promise<Response> {
  const policy = reviewPageSecurityPolicy(CONTENT_SECURITY_POLICY, await styleHashOnce());
  return new Response(renderReviewPage(view, locale), {
    status,
    headers: { ...PAGE_HEADERS, 'Content-Security-Policy': policy },
  });
}

interface DraftRow {
  id: string;
  file: string;
  decision: string | null;
  decided_at: string | null;
}

interface Draft {
  event: Event;
  decision: 'confirmed' | 'rejected' | null;
}

async function readDraft(db: D1Database, id: string): Promise<Draft | null> {
  const row = await db
    .prepare('SELECT id, file, decision, decided_at FROM watch_drafts WHERE id = ?1')
    .bind(id)
    .first<DraftRow>();
  if (row === null) return null;
  const decision = row.decision === 'confirmed' || row.decision === 'rejected' ? row.decision : null;
  return { event: EventSchema.parse(JSON.parse(row.file)), decision };
}

/** What became of a decided draft, the event as it stands (the journal's, with the reviewer's edits) and its commit. */
function outcomeOf(
  draft: Draft,
  entry: JournalEntry | null,
): { outcome: ReviewOutcome; event: Event; commit: string | null } {
  if (draft.decision === 'rejected' || entry === null)
    return { outcome: draft.decision === 'rejected' ? 'rejected' : 'confirmed', event: draft.event, commit: null };
  const { event, gitCommit: commit } = entry;
  if (entry.state === 'withdrawn') return { outcome: 'withdrawn', event, commit };
  if (entry.gitState === 'committed') return { outcome: 'inGit', event, commit };
  if (entry.state === 'retired') return { outcome: 'inBuild', event, commit };
  return { outcome: 'confirmed', event, commit };
}

const withdrawable = (entry: JournalEntry | null): boolean =>
  entry !== null && entry.state === 'live' && entry.gitState === 'pending';

interface ReviewRequest {
  /** The built files too: a confirm is judged against the serving build's summaries (journal/fit.ts). */
  env: ReviewBindings & { ASSETS: Pick<Fetcher, 'fetch'> };
  request: Request;
  now: Date;
  draftId: string;
  /** Where the file's first try for git runs once the answer has left (the worker's `waitUntil`). */
  waitUntil?: (promise: Promise<unknown>) => void;
}

type Checked =
  | { ok: true; key: string; db: D1Database; draft: Draft; verdict: 'ok' | 'expired' }
  | { ok: false; response: Response };

/**
 * The refusals GET and POST share, in order: no key, no database, a wrong token, no such draft. The token first: a
 * request without a good one learns nothing of which drafts exist.
 */
async function checkDraft({ env, draftId, now }: ReviewRequest, token: string, locale: Locale): Promise<Checked> {
  const refuse = async (refusal: 'off' | 'unavailable' | 'unknown' | 'wrong', status: number) => ({
    ok: false as const,
    response: await page({ kind: 'refused', refusal, draftId, token }, locale, status),
  });
  const key = env.REVIEW_SIGNING_KEY;
  if (key === undefined || key === '') return refuse('off', 404);
  if (env.DB === undefined) return refuse('unavailable', 503);
  const verdict = await verifyReviewToken(key, draftId, token, now);
  if (verdict === 'wrong') return refuse('wrong', 403);
  const draft = await readDraft(env.DB, draftId);
  if (draft === null) return refuse('unknown', 404);
  return { ok: true, key, db: env.DB, draft, verdict };
}

/** The state database failing mid-answer: the page says so, and nothing was decided by this request. */
async function orUnavailable(
  locale: Locale,
  context: { draftId: string; token: string },
  answer: () => Promise<Response>,
): Promise<Response> {
  try {
    return await answer();
  } catch (error) {
    console.error(`review page of ${context.draftId}: the state database failed`, error);
    return page({ kind: 'refused', refusal: 'unavailable', ...context }, locale, 503);
  }
}

/** `GET /review/<id>?t=<token>`: the draft, or what became of it. Reads only (link previews fetch it). */
export async function answerReviewGet(
  review: ReviewRequest,
  query: { t: string; lang?: string | undefined },
): Promise<Response> {
  const locale = chooseReviewLocale(query.lang, review.request.headers.get('Accept-Language'));
  const token = query.t;
  const { draftId } = review;
  return orUnavailable(locale, { draftId, token }, async () => {
    const checked = await checkDraft(review, token, locale);
    if (!checked.ok) return checked.response;
    const { draft, verdict, db } = checked;
    const expiresAt = reviewTokenExpiry(token)!;
    if (draft.decision === null) {
      if (verdict === 'expired') return page({ kind: 'refused', refusal: 'expired', draftId, token }, locale, 403);
      return page({ kind: 'draft', event: draft.event, token, expiresAt }, locale, 200);
    }
    const entry = draft.decision === 'confirmed' ? await readJournalEntry(db, draftId) : null;
    const { outcome, event, commit } = outcomeOf(draft, entry);
    if (verdict === 'expired')
      return page({ kind: 'refused', refusal: 'expired', draftId, token, outcome, commit }, locale, 403);
    const canWithdraw = withdrawable(entry);
    return page({ kind: 'outcome', event, token, expiresAt, outcome, commit, canWithdraw }, locale, 200);
  });
}

/**
 * Whether the form came from another site: an `Origin` that is not the request's own, or a browser saying
 * `Sec-Fetch-Site: cross-site`. A form without either (an old browser, curl) is taken: the token is the proof.
 */
function crossSiteOrigin(request: Request): string | null {
  const origin = request.headers.get('Origin');
  if (origin !== null && origin !== new URL(request.url).origin) return origin;
  if (request.headers.get('Sec-Fetch-Site')?.toLowerCase() === 'cross-site') return origin ?? 'cross-site';
  return null;
}

const isAction = (value: string | null): value is ReviewAction =>
  (REVIEW_ACTIONS as readonly string[]).includes(value ?? '');

/** `POST /review/<id>`: confirm (with the edits), reject or withdraw; 303 to the page once done. */
export async function answerReviewPost(review: ReviewRequest): Promise<Response> {
  const { request, draftId, now, env } = review;
  const acceptLanguage = request.headers.get('Accept-Language');
  const crossSite = crossSiteOrigin(request);
  if (crossSite !== null)
    return page(
      { kind: 'refused', refusal: 'crossSite', draftId, origin: crossSite },
      chooseReviewLocale(null, acceptLanguage),
      403,
    );
  if (!isFormBody(request))
    return page({ kind: 'refused', refusal: 'notForm', draftId }, chooseReviewLocale(null, acceptLanguage), 415);
  const body = await readRequestBody(request, REVIEW_FORM_MAX_BYTES);
  if (body.tooLarge)
    return page({ kind: 'refused', refusal: 'notForm', draftId }, chooseReviewLocale(null, acceptLanguage), 413);
  const form = new URLSearchParams(body.text);
  const locale = chooseReviewLocale(form.get('lang'), acceptLanguage);
  const token = form.get('t') ?? '';
  return orUnavailable(locale, { draftId, token }, async () => {
    const checked = await checkDraft(review, token, locale);
    if (!checked.ok) return checked.response;
    const { draft, verdict, db } = checked;
    const refuse = (
      refusal: 'expired' | 'used' | 'badAction' | 'notWithdrawable' | 'olderThanLatest',
      status: number,
      extra = {},
    ) => page({ kind: 'refused', refusal, draftId, token, ...extra }, locale, status);
    const decider: DecisionBindings =
      env.DELIVERY_QUEUE === undefined ? { DB: db } : { DB: db, DELIVERY_QUEUE: env.DELIVERY_QUEUE };
    const action = form.get('action');
    if (!isAction(action)) return refuse('badAction', 400);
    const seeOutcome = () =>
      new Response(null, {
        status: 303,
        headers: {
          Location: `/review/${draftId}?${new URLSearchParams({ t: token, lang: locale })}`,
          'Cache-Control': 'no-store',
          'Referrer-Policy': 'no-referrer',
        },
      });

    if (action === 'withdraw') {
      // Allowed while the token lives and the event is live in the journal, not yet in git.
      if (verdict === 'expired') return refuse('expired', 403);
      const entry = draft.decision === 'confirmed' ? await readJournalEntry(db, draftId) : null;
      if (withdrawable(entry) && (await withdrawLive(db, draftId, now))) return seeOutcome();
      // Not live, or in git already (perhaps since the read above): the page says what it is now.
      const current = entry === null ? null : await readJournalEntry(db, draftId);
      if (draft.decision === null) return refuse('notWithdrawable', 409);
      const { outcome, commit } = outcomeOf(draft, current);
      return refuse('notWithdrawable', 409, { outcome, commit });
    }

    const usedBefore = async () => {
      const decided = (await readDraft(db, draftId)) ?? draft;
      const entry = decided.decision === 'confirmed' ? await readJournalEntry(db, draftId) : null;
      const { outcome, commit } = outcomeOf(decided, entry);
      return refuse('used', 403, { outcome, commit });
    };
    if (draft.decision !== null) return usedBefore();
    if (verdict === 'expired') return refuse('expired', 403);
    if (action === 'reject')
      return (await rejectDraft(decider, draftId, now)) === 'recorded' ? seeOutcome() : usedBefore();

    // A field the form leaves out is the draft's own; one it sends, even empty, is the reviewer's.
    const drafted = editsOf(draft.event);
    const edits = {
      kind: form.get('kind') ?? drafted.kind,
      scope: form.get('scope') ?? drafted.scope,
      effectiveAt: form.get('effectiveAt') ?? drafted.effectiveAt,
    };
    const edited = editedEvent(draft.event, edits, now);
    if (!edited.ok)
      return page(
        {
          kind: 'draft',
          event: draft.event,
          token,
          expiresAt: reviewTokenExpiry(token)!,
          edits,
          issues: edited.issues,
        },
        locale,
        400,
      );
    // A reset older than the provider's latest would reorder the history the build summed up: a pull request's.
    if ((await journalMisfit(env, edited.event)) !== null) return refuse('olderThanLatest', 409);
    if ((await confirmDraft(decider, draftId, edited.event, now)) !== 'recorded') return usedBefore();
    // The file's first try for git, after the answer (it never throws; what does not land is the minute cron's):
    // the reviewer sees the outcome without waiting for GitHub. Nothing is tried without GITHUB_TOKEN.
    const commit = commitConfirmed({ ...env, DB: db }, draftId, now);
    if (review.waitUntil === undefined) await commit;
    else review.waitUntil(commit);
    return seeOutcome();
  });
}
