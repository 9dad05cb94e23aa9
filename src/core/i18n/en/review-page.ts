/**
 * The review page (`/review/<draft id>`, src/core/review/page.ts; docs/watch.md, "The review page"): a draft beside
 * its original post, the form that confirms or rejects it, what became of it, and every refusal with what to do.
 * Plain data; `{name}` is a placeholder: `{time}` a time in this locale's form, `{id}` the draft's id, `{commit}` a
 * commit's short sha, `{origin}` the address a refused form came from, `{label}` a word and `{name}` the file's field
 * or value it stands for, `{field}` and `{message}` a refused field and why.
 */
export const reviewPage = {
  title: 'Review a draft',
  intro:
    'The watcher found this post and drafted it as an event. Check it against the original post, correct the kind, scope or effective time if needed, then confirm or reject it.',
  draftId: 'Draft {id}',
  originalPost: 'Original post',
  openOriginal: 'Open the original post',
  postSummary: 'What the post says',
  fieldsHeading: 'The event',
  fields: {
    id: 'Id',
    provider: 'Provider',
    kind: 'Kind',
    scope: 'Scope',
    announcedAt: 'Announced',
    effectiveAt: 'Takes effect',
    sourceAccount: 'Account',
    sourceUrl: 'Original post',
    summary: 'Summary',
    audience: 'Audience',
    verified: 'Verified',
  },
  scopeHint: '“global”, or “plan:” and the plan’s name (lower case), such as plan:pro.',
  effectiveAtHint:
    'Leave empty when the post names no later time. Otherwise a UTC time with milliseconds, such as 2026-06-15T18:00:00.000Z.',
  none: '(none)',
  confirm: 'Confirm and publish',
  confirmHint: 'Confirming publishes the event on the board and every feed at once, and tells every channel.',
  reject: 'Reject',
  rejectHint: 'Rejecting discards the draft: the post is never proposed again.',
  linkLives: 'This link works until {time}, once.',
  invalidHeading: 'The edited event is not valid, and nothing was changed. Correct the fields marked below:',
  labelled: '{label} ({name})',
  issue: '{field}: {message}',
  otherField: 'The event',
  outcome: {
    confirmed: 'Confirmed: published; it reaches git next.',
    providerPage: 'The provider’s page',
    eventJson: 'The event as JSON',
    withdrawHint: 'A mistake? Withdraw it while this link lives: it leaves every output and is not committed.',
    withdraw: 'Withdraw',
    inGit: 'Confirmed, and in git now (commit {commit}): corrections go through a pull request.',
    inBuild: 'Confirmed, and now in the site’s build: corrections go through a pull request.',
    withdrawn: 'Withdrawn: the event left every output, and its file will not be committed.',
    rejected: 'Rejected: this post will not be proposed again.',
  },
  refused: {
    wrong: {
      title: 'This link is not valid',
      body: 'Its token does not belong to this draft: the link was changed or cut short. Open the link from the review message again, whole.',
    },
    expired: {
      title: 'This link has expired',
      body: 'Review links last 24 hours. Use the review message’s other link, which opens the file in the repository’s editor and does not expire.',
    },
    used: {
      title: 'This link has been used',
      body: 'A review link decides once, and this draft was decided already. Nothing was changed now.',
    },
    unknown: {
      title: 'No such draft',
      body: 'No draft has this id: the link is wrong, or the draft was removed once a build published its post.',
    },
    off: {
      title: 'Review links are off here',
      body: 'This deployment has no REVIEW_SIGNING_KEY, so it makes no review links and accepts none. Use the review message’s link to the repository’s editor.',
    },
    unavailable: {
      title: 'Not available now',
      body: 'The state database cannot be reached now, or this deployment has none. Nothing was changed; try again in a minute.',
    },
    crossSite: {
      title: 'Refused: not sent from this page',
      body: 'The form came from another site ({origin}), so it was not taken. Open the review link yourself and press the button there.',
    },
    notForm: {
      title: 'Refused: not a form',
      body: 'The page takes its own form only (application/x-www-form-urlencoded, at most 16 KiB). Open the review link and use the buttons there.',
    },
    badAction: {
      title: 'Refused: no such action',
      body: 'The form asked for something the page does not do. Open the review link and use its buttons.',
    },
    olderThanLatest: {
      title: 'This reset cannot be published from here',
      body: 'It took effect before the provider’s latest reset on the board, so publishing it now would reorder the history. Nothing was changed. Propose it through the review message’s link to the repository’s editor: the build recounts the whole history.',
    },
    notWithdrawable: {
      title: 'This event cannot be withdrawn now',
      body: 'Only an event confirmed on this page and not yet in git can be withdrawn. While its file is being committed, try again in a few seconds; once in git, corrections go through a pull request.',
    },
  },
  stateNow: 'Now: {state}',
  backToDraft: 'Back to the draft',
  otherLanguage: '中文',
};
