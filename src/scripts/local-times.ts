import { chineseMinute } from '../core/i18n/zh/format.ts';

/**
 * Times are rendered in UTC (honest without JavaScript); here they are shown in the viewer's own zone, with
 * the zone named, and UTC kept on hover. Hour histograms get a second axis in the viewer's local hours.
 * Chinese pages take the form the server writes them in (`2026年12月3日 22:03（GMT+8）`, docs/glossary-zh.md).
 */
export function showLocalTimes(document: Document): void {
  const locale = document.documentElement.lang || 'en';
  const chinese = locale.startsWith('zh');
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  // dateStyle/timeStyle cannot be combined with timeZoneName: the fields are spelled out instead.
  const format = new Intl.DateTimeFormat(locale, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  });
  // Once each: the rows' script (live-status.ts) calls this again after drawing new times, and a time already in
  // the reader's zone must keep its UTC form as its title.
  for (const element of document.querySelectorAll<HTMLTimeElement>('time[data-local]:not([data-localized])')) {
    const instant = new Date(element.dateTime);
    if (Number.isNaN(instant.getTime())) continue;
    element.dataset['localized'] = '';
    element.title = element.textContent?.trim() ?? '';
    element.textContent = chinese ? chineseMinute(element.dateTime, zone) : format.format(instant);
  }
  const offsetMinutes = -new Date().getTimezoneOffset();
  for (const label of document.querySelectorAll<SVGTextElement>('text[data-local-hour-of]')) {
    const minutes = (Number(label.dataset['localHourOf']) * 60 + offsetMinutes + 1440) % 1440;
    const text =
      minutes % 60 === 0
        ? String(minutes / 60)
        : `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;
    label.textContent = text;
  }
  for (const row of document.querySelectorAll<SVGElement>('[data-local-hours]')) row.removeAttribute('visibility');
}
