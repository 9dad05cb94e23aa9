import { UTCDate } from '@date-fns/utc';
import { format } from 'date-fns';
import type { Locale } from '../vocabulary.ts';
import { MIN_FORECAST_GAPS } from './rule.ts';
import type { Forecast, ForecastBasis } from './schemas.ts';

/**
 * The forecast in one plain sentence per provider, English and Chinese (to move into src/core/i18n). The
 * words say no more than the numbers: a pattern in past gaps, never a vendor plan or a promise.
 */

type Sentence = (forecast: Forecast) => string;

const percent = (probability: number | null): string =>
  probability === null ? '–' : `${Math.round(probability * 100)} %`;
const days = (elapsedDays: number | null): string => (elapsedDays ?? 0).toFixed(1);

/** `Tue 24 Nov 17:00 UTC`. */
const englishTime = (iso: string | null): string =>
  iso === null ? '–' : `${format(new UTCDate(iso), 'EEE d MMM HH:mm')} UTC`;

const CHINESE_WEEKDAYS = ['周日', '周一', '周二', '周三', '周四', '周五', '周六'];
/** `11月24日 周二 17:00 UTC`. */
function chineseTime(iso: string | null): string {
  if (iso === null) return '–';
  const time = new Date(iso);
  const clock = time.toISOString().slice(11, 16);
  return `${time.getUTCMonth() + 1}月${time.getUTCDate()}日 ${CHINESE_WEEKDAYS[time.getUTCDay()]} ${clock} UTC`;
}

const en: Record<ForecastBasis, Sentence> = {
  cadence: (f) =>
    `${percent(f.probabilities['1d'])} chance of a reset within 24 h, ${percent(f.probabilities['7d'])} within 7 days (from the last ${f.sampleSize} gaps).`,
  insufficient: (f) =>
    f.sampleSize === 0
      ? `No forecast yet: no gap between resets recorded (${MIN_FORECAST_GAPS} needed).`
      : `No forecast yet: only ${f.sampleSize} ${f.sampleSize === 1 ? 'gap' : 'gaps'} between resets recorded (${MIN_FORECAST_GAPS} needed).`,
  beyond_history: (f) =>
    `No forecast: the ${days(f.elapsedDays)} days since the last reset match or pass every one of the last ${f.sampleSize} gaps on record.`,
  announced: (f) => `A reset is announced for ${englishTime(f.announcedFor)}.`,
  teased: (f) => `A reset is teased for ${englishTime(f.announcedFor)}, not confirmed.`,
  no_data: () => 'No data yet.',
};

const zh: Record<ForecastBasis, Sentence> = {
  cadence: (f) =>
    `根据最近 ${f.sampleSize} 次间隔：24 小时内重置的可能性为 ${percent(f.probabilities['1d'])}，7 天内为 ${percent(f.probabilities['7d'])}。`,
  insufficient: (f) =>
    f.sampleSize === 0
      ? `暂无预测：尚未记录到重置间隔（至少需要 ${MIN_FORECAST_GAPS} 次）。`
      : `暂无预测：仅记录了 ${f.sampleSize} 次重置间隔（至少需要 ${MIN_FORECAST_GAPS} 次）。`,
  beyond_history: (f) =>
    `暂无预测：距上次重置已过 ${days(f.elapsedDays)} 天，已达到或超过最近 ${f.sampleSize} 次间隔中的每一次。`,
  announced: (f) => `已宣布于 ${chineseTime(f.announcedFor)} 重置。`,
  teased: (f) => `预告于 ${chineseTime(f.announcedFor)} 重置，尚未确认。`,
  no_data: () => '暂无数据。',
};

export const FORECAST_SENTENCES: Record<Locale, Record<ForecastBasis, Sentence>> = { en, zh };

/** What the numbers are and are not, for notes beside the sentence (and the MCP tool's description). */
export const FORECAST_NOTE: Record<Locale, string> = {
  en: 'A pattern in the past gaps between resets, not a vendor plan: of the recent waits that lasted as long as this one, the share that ended within the next day or week.',
  zh: '这是过去重置间隔的规律，不是供应商的计划：在持续到目前时长的近期等待中，于之后一天或一周内结束的比例。',
};

export const forecastSentence = (forecast: Forecast, locale: Locale): string =>
  FORECAST_SENTENCES[locale][forecast.basis](forecast);
