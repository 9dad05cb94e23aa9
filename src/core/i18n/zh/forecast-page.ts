import { MIN_FORECAST_GAPS } from '../../cadence.ts';
import { CHANCE_BY_DAY_DAYS } from '../../forecast/schemas.ts';
import type { Translations } from '../en/index.ts';
import { chineseDay } from './format.ts';

/** The forecast section of a provider page in Chinese, in the shape of the English. */
export const forecastPage: Translations['forecastPage'] = {
  heading: '重置的可能性',
  byDayTitle: `未来 ${CHANCE_BY_DAY_DAYS} 天内，截至每一天已发生重置的可能性`,
  byDayDescription: (first: string, last: string) =>
    `1 天内为 ${first}，${CHANCE_BY_DAY_DAYS} 天内为 ${last}；依据比当前等待更长的过去间隔。`,
  withinColumn: '期限',
  chanceColumn: '可能性',
  withinDays: (day: number) => `${day} 天内`,
  showTable: '以表格查看数值',
  likelyWindow: '可能的时间窗口：{from}至 {to}。依据是比当前等待更长的过去间隔，取其中间的一半。',
  trackHeading: '预测的历史表现',
  trackIntro: `自首次有 ${MIN_FORECAST_GAPS} 次重置间隔起，每 24 小时按当时已知的信息重新运行一次规则，并用之后实际发生的情况为每个可能性打分。布里尔分数是可能性的均方误差（0 为完美，越低越好）。基准率是一种对照预测：每天都给出同一个可能性，即事后统计发生了重置的天数所占的比例。值得参考的预测，其布里尔分数应低于基准率的布里尔分数。`,
  trackEmpty: `历史尚不足：至少有 ${MIN_FORECAST_GAPS} 次重置间隔后才开始记录。`,
  trackSince: (firstIso: string, checkpoints: number) =>
    `自 ${chineseDay(firstIso)}起，共进行了 ${checkpoints} 次每日检查。`,
  scoreColumns: {
    horizon: '重置期限',
    scored: '已评分天数',
    brier: '预测的布里尔分数',
    baseRate: '基准率',
    baseRateBrier: '基准率的布里尔分数',
  },
  horizons: { '1d': '24 小时内', '7d': '7 天内' },
  reliabilityTitle: '预测与实际结果对照',
  reliabilityDescription:
    '每个点代表十分之一区间内的预测：横轴为给出的平均可能性，纵轴为之后实际发生重置的频率。落在对角线上表示平均而言预测准确。圆点：24 小时内；方块：7 天内。点越大，包含的天数越多。',
  forecastAxis: '给出的可能性',
  observedAxis: '实际发生重置的频率',
  diagonal: '完美校准',
  reliabilityColumns: {
    horizon: '期限',
    bin: '给出的可能性区间',
    meanForecast: '平均可能性',
    observed: '之后发生重置',
    count: '天数',
  },
  extremesCaveat:
    '请谨慎看待 0 % 和 100 % 这两档：在漫长等待的后期，比当前等待更长的过去间隔只剩一两次，可能性完全取决于它们。这类极端数字过去常常不准，它们的意思是“可比的等待很少”，而不是确定无疑。',
};
