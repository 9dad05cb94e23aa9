/**
 * The board's answer to "when" and the legend of its status words (src/core/board-answer.ts). Plain data: the
 * `{name}` placeholders are filled by `fillTemplate`, so the page script can be handed these words as JSON.
 */
export const boardAnswer = {
  announced: 'Announced for {time} ({relative})',
  teased: 'Teased for {time} ({relative}), not confirmed',
  post: 'the post',
  likely: 'Likely between {from} and {to}',
  likelyBasis: 'forecast: the middle half of the past waits that lasted this long',
  noWindow: 'No likely window: this wait is longer than every recent gap',
  estimateAhead: 'Cadence estimate: {time} ({relative})',
  estimatePassed: 'Cadence estimate passed: {time}',
  estimateNone: 'Cadence estimate: not enough history',
  unconfirmed: 'teased for {time} ({relative}) · not confirmed',
  unconfirmedNoTime: 'teased {relative}, no time named · not confirmed',
  never: 'none recorded',
  legendHeading: 'What the status words mean',
  legend: {
    reset_now: 'a reset took effect within the last 24 hours.',
    tease:
      'a reset is announced for a later time, or teased within the last {teaseDays} days (or for a time still ahead) since the last reset.',
    banked: 'the latest post is about a banked reset card: a reset kept to be used later.',
    overdue:
      'the wait since the last reset is longer than {overdueFactor} × the median gap of the last {resets} resets.',
    waiting: 'none of the above: the wait is within the usual cadence.',
    no_data: 'nothing has been published for this provider yet.',
  },
  live: 'Rows updated {time}; they keep current every minute while this page is open.',
};
