import { timeProblems } from '../content/time-rules.ts';
import { escapeUTF8 as escapeHtml } from 'entities';
import { TRANSLATIONS } from '../i18n/index.ts';
import { fillText } from '../i18n/template.ts';
import { type Event, EventSchema } from '../schemas.ts';
import { localizedPath, SERVICE_NAME } from '../site.ts';
import { isLocale, LANGUAGES, languageOf, localeOfAcceptLanguage, localeOfTag } from '../languages.ts';
import { EVENT_KINDS, type Locale } from '../vocabulary.ts';
import { reviewPagePath } from './token.ts';

/**
 * The review page of a draft (decisions.md, "Confirmed within a minute"; docs/watch.md, "The review page"): the
 * draft beside its original post, every field, kind, scope and `effectiveAt` editable, and Confirm / Reject; what
 * became of a decided draft (with Withdraw while it may); and every refusal, saying which and what to do. Plain HTML
 * without a script, readable at 320 px; everything that comes from a post or a request is escaped. The edge handler
 * (functions/api/review.ts) decides which view to show; this module only writes it.
 */

type Words = (typeof TRANSLATIONS)['en']['reviewPage'];
export type ReviewRefusal = keyof Words['refused'];
export type ReviewOutcome = 'confirmed' | 'inGit' | 'inBuild' | 'withdrawn' | 'rejected';

/** The three fields a reviewer may change, as typed in the form (`effectiveAt` empty for none). */
export interface ReviewEdits {
  kind: string;
  scope: string;
  effectiveAt: string;
}
export type EditableField = keyof ReviewEdits;
export interface ReviewIssue {
  /** The event's field the issue is about, or null for the event as a whole. */
  field: keyof Event | null;
  message: string;
}

export type ReviewView =
  | {
      kind: 'draft';
      event: Event;
      token: string;
      expiresAt: Date;
      /** The form as sent, kept when it was refused. */
      edits?: ReviewEdits;
      issues?: readonly ReviewIssue[];
    }
  | {
      kind: 'outcome';
      event: Event;
      token: string;
      expiresAt: Date;
      outcome: ReviewOutcome;
      /** Whether the Withdraw button is offered: the event live in the journal, not in git, the token alive. */
      canWithdraw: boolean;
      /** The commit of the event's file, once in git. */
      commit?: string | null;
    }
  | {
      kind: 'refused';
      refusal: ReviewRefusal;
      draftId?: string;
      /** The request's token, when it had one: the language switch and "back" keep it. */
      token?: string;
      /** The address a cross-site form came from. */
      origin?: string;
      /** What became of the draft, where the refusal is about a decided one, and its commit once in git. */
      outcome?: ReviewOutcome;
      commit?: string | null;
    };

/** The form's values of a draft as it is. */
export const editsOf = (event: Event): ReviewEdits => ({
  kind: event.kind,
  scope: event.scope,
  effectiveAt: event.effectiveAt ?? '',
});

/**
 * The draft with the reviewer's edits, verified, checked as `npm run validate` checks a file: the project's
 * EventSchema, then the content's time rules (src/core/content/time-rules.ts: an `effectiveAt` after `announcedAt`,
 * no post from the future), so that a confirmed event's file never stops the next build. The event to confirm, or
 * the issues, each on its field. An empty `effectiveAt` is none (`null`); the other fields are the draft's.
 */
export function editedEvent(
  draft: Event,
  edits: ReviewEdits,
  now: Date,
): { ok: true; event: Event } | { ok: false; issues: ReviewIssue[] } {
  const candidate = {
    ...draft,
    kind: edits.kind,
    scope: edits.scope.trim(),
    effectiveAt: edits.effectiveAt.trim() === '' ? null : edits.effectiveAt.trim(),
    verified: true,
  };
  const parsed = EventSchema.safeParse(candidate);
  if (parsed.success) {
    const problems = timeProblems(`content/events/${draft.provider}/${draft.id}.json`, parsed.data, now);
    if (problems.length === 0) return { ok: true, event: parsed.data };
    return {
      ok: false,
      issues: problems.map((problem) => ({
        field: problem.field as keyof Event,
        message: problem.fix === undefined ? problem.message : `${problem.message}: ${problem.fix}`,
      })),
    };
  }
  return {
    ok: false,
    issues: parsed.error.issues.map((issue) => {
      const field = issue.path[0];
      return {
        field: typeof field === 'string' && field in draft ? (field as keyof Event) : null,
        message: issue.message,
      };
    }),
  };
}

/**
 * The page's language: the `lang` field of the query or the form when it names one, else the first of the
 * browser's `Accept-Language` ranges (by weight) that names one, else English.
 */
export function chooseReviewLocale(lang: string | null | undefined, acceptLanguage: string | null): Locale {
  return (
    (isLocale(lang ?? '') ? (lang as Locale) : null) ??
    localeOfTag(lang ?? '') ??
    localeOfAcceptLanguage(acceptLanguage) ??
    'en'
  );
}

/**
 * The page's style: small and phone first (one column, large touch targets, long words broken). Served inline with
 * its hash in the page's Content-Security-Policy (`reviewPageSecurityPolicy`), never 'unsafe-inline'.
 */
export const REVIEW_PAGE_STYLE =
  'body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1a1a1a;background:#fafafa}' +
  'main{max-width:40rem;margin:0 auto;padding:1rem}' +
  'h1{font-size:1.4rem;margin:.5rem 0}h2{font-size:1.1rem;margin:1.5rem 0 .5rem}' +
  'p,dd,blockquote,li{overflow-wrap:anywhere}' +
  'blockquote{margin:0;padding:.5rem .75rem;border-left:4px solid #888;background:#fff;white-space:pre-wrap}' +
  'dl{margin:0}dt{font-weight:600;margin-top:.75rem}dd{margin:0}' +
  'label{display:block;font-weight:600;margin-top:.75rem}' +
  'input,select{box-sizing:border-box;width:100%;font:inherit;padding:.5rem;margin-top:.25rem}' +
  'button{font:inherit;padding:.75rem 1rem;margin:.5rem .5rem 0 0;min-width:8rem;cursor:pointer}' +
  '.confirm{background:#0b6b2e;color:#fff;border:0}.reject{background:#fff;color:#8a1111;border:2px solid #8a1111}' +
  '.hint{font-size:.9rem;color:#555;margin:.25rem 0}.error{color:#8a1111}' +
  '.issues{border:2px solid #8a1111;padding:.5rem .75rem;background:#fff}' +
  'nav{display:flex;justify-content:space-between;gap:1rem;font-size:.9rem}' +
  '@media (prefers-color-scheme:dark){body{color:#eee;background:#151515}blockquote,.issues{background:#222}' +
  '.hint{color:#bbb}.reject{background:#151515}}';

/**
 * The page's Content-Security-Policy: the site's (`sitePolicy`) with its style allowed by hash alone, and no form
 * posting anywhere but here. `styleHash` is the base64 SHA-256 of `REVIEW_PAGE_STYLE`.
 */
export const reviewPageSecurityPolicy = (sitePolicy: string, styleHash: string): string =>
  sitePolicy.replace(/style-src [^;]*/, `style-src 'sha256-${styleHash}'`);

/** `/review/<id>?t=<token>&lang=<locale>`: the page, in a language. */
const pageHref = (draftId: string, token: string, locale: Locale) =>
  `${reviewPagePath(draftId)}?${new URLSearchParams({ t: token, lang: locale })}`;

/** The page of `view`, in `locale`, as one HTML document. */
export function renderReviewPage(view: ReviewView, locale: Locale): string {
  const words = TRANSLATIONS[locale].reviewPage;
  const draftId = view.kind === 'refused' ? view.draftId : view.event.id;
  const token = view.token;
  const title = view.kind === 'refused' ? words.refused[view.refusal].title : words.title;
  const switcher =
    draftId !== undefined && token !== undefined
      ? LANGUAGES.filter((language) => language.code !== locale)
          .map(
            (language) =>
              `<a href="${escapeHtml(pageHref(draftId, token, language.code))}" lang="${language.tag}">${escapeHtml(language.name)}</a>`,
          )
          .join(' · ')
      : '';
  const head = draftId === undefined ? '' : escapeHtml(fillText(words.draftId, { id: draftId }));
  const body =
    view.kind === 'draft'
      ? draftBody(view, locale)
      : view.kind === 'outcome'
        ? outcomeBody(view, locale)
        : refusedBody(view, locale);
  return `<!doctype html>
<html lang="${languageOf(locale).tag}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><meta name="referrer" content="no-referrer">
<title>${escapeHtml(`${title} · ${SERVICE_NAME}`)}</title><style>${REVIEW_PAGE_STYLE}</style></head>
<body><main>
<nav><span>${head}</span>${switcher}</nav>
<h1>${escapeHtml(title)}</h1>
${body}
</main></body></html>
`;
}

/** A word and the name it stands for, in the locale's brackets: `Kind (kind)`, `公告类型（kind）`. */
const labelled = (locale: Locale, label: string, name: string) =>
  fillText(TRANSLATIONS[locale].reviewPage.labelled, { label, name });

const paragraph = (text: string, className?: string) =>
  `<p${className === undefined ? '' : ` class="${className}"`}>${escapeHtml(text)}</p>`;

/** The original post: its address as a plain link (only an https one is a link) and its text as text. */
function originalPost(event: Event, locale: Locale): string {
  const words = TRANSLATIONS[locale].reviewPage;
  const link = /^https:\/\//i.test(event.sourceUrl)
    ? `<a href="${escapeHtml(event.sourceUrl)}" rel="noreferrer noopener">${escapeHtml(words.openOriginal)}</a>`
    : '';
  return `<h2>${escapeHtml(words.originalPost)}</h2>
<p>${link}</p>
<p class="hint">${escapeHtml(event.sourceUrl)}</p>
<p class="hint">${escapeHtml(labelled(locale, words.postSummary, event.sourceAccount))}</p>
<blockquote>${escapeHtml(event.summary)}</blockquote>`;
}

/** The hidden fields every form carries: the token and the page's language. */
const hiddenFields = (token: string, locale: Locale) =>
  `<input type="hidden" name="t" value="${escapeHtml(token)}"><input type="hidden" name="lang" value="${locale}">`;

const fieldValue = (event: Event, field: keyof Event, locale: Locale): string => {
  const words = TRANSLATIONS[locale];
  const value = event[field];
  if (field === 'provider') return labelled(locale, words.providers[event.provider], event.provider);
  if (value === null) return words.reviewPage.none;
  if (Array.isArray(value)) return value.length === 0 ? words.reviewPage.none : value.join(', ');
  return String(value);
};

/** Read-only fields shown as a list: every field of the event but the editable ones and the post's own. */
const READ_ONLY: readonly (keyof Event)[] = ['id', 'provider', 'announcedAt', 'sourceAccount', 'audience', 'verified'];

function draftBody(view: Extract<ReviewView, { kind: 'draft' }>, locale: Locale): string {
  const words = TRANSLATIONS[locale].reviewPage;
  const { event, token } = view;
  const edits = view.edits ?? editsOf(event);
  const issues = view.issues ?? [];
  const issuesOf = (field: keyof Event) =>
    issues
      .filter((issue) => issue.field === field)
      .map((issue) => `<p class="error" id="${field}-error">${escapeHtml(issue.message)}</p>`)
      .join('');
  const described = (field: keyof Event) =>
    issues.some((issue) => issue.field === field) ? ` aria-invalid="true" aria-describedby="${field}-error"` : '';
  const issueList =
    issues.length === 0
      ? ''
      : `<div class="issues" role="alert"><p>${escapeHtml(words.invalidHeading)}</p><ul>${issues
          .map(
            (issue) =>
              `<li>${escapeHtml(
                fillText(words.issue, {
                  field:
                    issue.field === null ? words.otherField : labelled(locale, words.fields[issue.field], issue.field),
                  message: issue.message,
                }),
              )}</li>`,
          )
          .join('')}</ul></div>`;
  const kinds = EVENT_KINDS.map(
    (kind) =>
      `<option value="${kind}"${kind === edits.kind ? ' selected' : ''}>${escapeHtml(labelled(locale, TRANSLATIONS[locale].kinds[kind], kind))}</option>`,
  ).join('');
  const readOnly = READ_ONLY.map(
    (field) =>
      `<dt>${escapeHtml(labelled(locale, words.fields[field], field))}</dt><dd>${escapeHtml(fieldValue(event, field, locale))}</dd>`,
  ).join('');
  return `<p>${escapeHtml(words.intro)}</p>
${issueList}
${originalPost(event, locale)}
<h2>${escapeHtml(words.fieldsHeading)}</h2>
<form method="post" action="${escapeHtml(reviewPagePath(event.id))}">
${hiddenFields(token, locale)}
<dl>${readOnly}</dl>
<label for="kind">${escapeHtml(labelled(locale, words.fields.kind, 'kind'))}</label>
<select id="kind" name="kind"${described('kind')}>${kinds}</select>${issuesOf('kind')}
<label for="scope">${escapeHtml(labelled(locale, words.fields.scope, 'scope'))}</label>
<input id="scope" name="scope" value="${escapeHtml(edits.scope)}" autocomplete="off" spellcheck="false"${described('scope')}>
<p class="hint">${escapeHtml(words.scopeHint)}</p>${issuesOf('scope')}
<label for="effectiveAt">${escapeHtml(labelled(locale, words.fields.effectiveAt, 'effectiveAt'))}</label>
<input id="effectiveAt" name="effectiveAt" value="${escapeHtml(edits.effectiveAt)}" autocomplete="off" spellcheck="false" inputmode="text"${described('effectiveAt')}>
<p class="hint">${escapeHtml(words.effectiveAtHint)}</p>${issuesOf('effectiveAt')}
<p class="hint">${escapeHtml(words.confirmHint)}</p>
<p class="hint">${escapeHtml(words.rejectHint)}</p>
<button class="confirm" type="submit" name="action" value="confirm">${escapeHtml(words.confirm)}</button>
<button class="reject" type="submit" name="action" value="reject">${escapeHtml(words.reject)}</button>
</form>
${paragraph(fillText(words.linkLives, { time: TRANSLATIONS[locale].formats.minute(view.expiresAt.toISOString()) }), 'hint')}`;
}

/** The outcome's sentence (a commit named by its first 7 characters). */
export function outcomeText(outcome: ReviewOutcome, locale: Locale, commit?: string | null): string {
  const words = TRANSLATIONS[locale].reviewPage.outcome;
  if (outcome === 'inGit') return fillText(words.inGit, { commit: (commit ?? '').slice(0, 7) });
  return words[outcome];
}

function outcomeBody(view: Extract<ReviewView, { kind: 'outcome' }>, locale: Locale): string {
  const words = TRANSLATIONS[locale].reviewPage;
  const { event, token } = view;
  const links =
    view.outcome === 'confirmed' || view.outcome === 'inGit' || view.outcome === 'inBuild'
      ? `<ul><li><a href="${escapeHtml(`${localizedPath(`/${event.provider}`, locale)}#event-${event.id}`)}">${escapeHtml(words.outcome.providerPage)}</a></li>
<li><a href="${escapeHtml(`/api/events/${event.id}`)}">${escapeHtml(words.outcome.eventJson)}</a></li></ul>`
      : '';
  const withdraw = view.canWithdraw
    ? `<form method="post" action="${escapeHtml(reviewPagePath(event.id))}">
${hiddenFields(token, locale)}
<p class="hint">${escapeHtml(words.outcome.withdrawHint)}</p>
<button class="reject" type="submit" name="action" value="withdraw">${escapeHtml(words.outcome.withdraw)}</button>
</form>`
    : '';
  return `<p role="status"><strong>${escapeHtml(outcomeText(view.outcome, locale, view.commit))}</strong></p>
${links}
${withdraw}
${originalPost(event, locale)}`;
}

/** Refusals whose page the draft's own link would only show again. */
const NO_WAY_BACK: ReadonlySet<ReviewRefusal> = new Set(['wrong', 'expired', 'off', 'unknown']);

function refusedBody(view: Extract<ReviewView, { kind: 'refused' }>, locale: Locale): string {
  const words = TRANSLATIONS[locale].reviewPage;
  const text = fillText(words.refused[view.refusal].body, { origin: view.origin ?? '' });
  const state =
    view.outcome === undefined
      ? ''
      : paragraph(fillText(words.stateNow, { state: outcomeText(view.outcome, locale, view.commit) }));
  const back =
    view.draftId !== undefined && view.token !== undefined && !NO_WAY_BACK.has(view.refusal)
      ? `<p><a href="${escapeHtml(pageHref(view.draftId, view.token, locale))}">${escapeHtml(words.backToDraft)}</a></p>`
      : '';
  return `${paragraph(text)}
${state}
${back}`;
}
