import { dateParts } from '../core/i18n/intl.ts';
import { fillText } from '../core/i18n/template.ts';

/**
 * Times are rendered in UTC (honest without JavaScript); here they are shown in the viewer's own zone, with
 * the zone named, and UTC kept on hover. Hour histograms get a second axis in the viewer's local hours.
 * in the form the server writes them in: the page's language's pattern (`data-minute-format` on `<html>`, the words'
 * `formats.minute`: `2026年12月3日 22:03（GMT+8）`, `2026-12-03 22:03 GMT+8`), with Intl's parts in its language.
 */
export function showLocalTimes(document: Document): void {
  const tag = document.documentElement.lang || 'en';
  const pattern = document.documentElement.dataset['minuteFormat'] ?? '{year}-{month2}-{day2} {hour}:{minute} {zone}';
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  // Once each: the rows' script (live-status.ts) calls this again after drawing new times, and a time already in
  // the reader's zone must keep its UTC form as its title.
  for (const element of document.querySelectorAll<HTMLTimeElement>('time[data-local]:not([data-localized])')) {
    const instant = new Date(element.dateTime);
    if (Number.isNaN(instant.getTime())) continue;
    element.dataset['localized'] = '';
    element.title = element.textContent?.trim() ?? '';
    element.textContent = fillText(pattern, dateParts(tag, element.dateTime, zone));
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
