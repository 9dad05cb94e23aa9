import { MIN_FORECAST_GAPS } from '../../cadence.ts';
import { CHANCE_BY_DAY_DAYS } from '../../forecast/schemas.ts';
import { utcDay } from '../../time-format.ts';

/** The forecast section of a provider page (its sentences on the board are `forecast` in index.ts). */
export const forecastPage = {
  heading: 'Chance of a reset',
  byDayTitle: `Chance of a reset within each of the next ${CHANCE_BY_DAY_DAYS} days`,
  byDayDescription: (first: string, last: string) =>
    `From ${first} within 1 day to ${last} within ${CHANCE_BY_DAY_DAYS} days, from the past gaps longer than the current wait.`,
  withinColumn: 'Within',
  chanceColumn: 'Chance',
  withinDays: (day: number) => (day === 1 ? '1 day' : `${day} days`),
  showTable: 'The numbers as a table',
  /** `{from}` and `{to}` are instants, shown in the reader's zone (src/core/board-answer.ts, fillTemplate). */
  likelyWindow: 'Likely window: {from} to {to} (the middle half of the past gaps longer than this wait).',
  trackHeading: 'How the forecast has held',
  trackIntro: `Every 24 hours since ${MIN_FORECAST_GAPS} gaps between resets first existed, the rule was run again on what was known at that moment, and each chance was scored against what then happened. The Brier score is the mean squared error of the chances (0 is perfect, lower is better). The base rate says the same chance every day: the share of days that a reset followed. A forecast worth reading scores lower than the base rate.`,
  trackEmpty: `Not enough history yet: the record starts once ${MIN_FORECAST_GAPS} gaps between resets exist.`,
  trackSince: (firstIso: string, checkpoints: number) =>
    `Since ${utcDay(firstIso)}: ${checkpoints.toLocaleString('en')} daily checks.`,
  scoreColumns: {
    horizon: 'Chance of a reset within',
    scored: 'Days scored',
    brier: 'Brier score of the forecast',
    baseRate: 'Base rate',
    baseRateBrier: 'Brier score of the base rate',
  },
  horizons: { '1d': '24 hours', '7d': '7 days' },
  reliabilityTitle: 'Forecast against outcome',
  reliabilityDescription:
    'Each point is one tenth of the forecasts: across, the mean chance given; up, how often a reset then followed. On the diagonal, the chances were right on average. Circles: within 24 hours; squares: within 7 days. Bigger points hold more days.',
  forecastAxis: 'chance given',
  observedAxis: 'how often a reset followed',
  diagonal: 'perfect calibration',
  reliabilityColumns: {
    horizon: 'Within',
    bin: 'Chances given',
    meanForecast: 'Mean chance',
    observed: 'Reset followed',
    count: 'Days',
  },
  extremesCaveat:
    'Read the 0 % and 100 % bins with care: late in a long wait, only one or two past gaps are longer than the wait, and the chance rests on them alone. Such extreme numbers have often been wrong; they mean "few comparable waits", not certainty.',
};
