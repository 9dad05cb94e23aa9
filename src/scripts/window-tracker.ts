import { utcMinute } from '../core/render/labels.ts';
import { planWindowTracker } from '../core/tracker/plan.ts';
import { TRACKER_TEXT } from '../components/window-tracker-text.ts';
import type { Locale } from '../core/vocabulary.ts';

/** The tracker's conveniences: the detected time zone, the link and the converted times as you type. */
export function enhanceWindowTracker(document: Document): void {
  const root = document.querySelector<HTMLElement>('.tracker');
  const form = document.querySelector<HTMLFormElement>('#tracker-form');
  if (root === null || form === null) return;
  const locale = root.dataset['locale'] as Locale;
  const baseUrl = root.dataset['baseUrl'] ?? '';
  const text = TRACKER_TEXT[locale];
  const zoneInput = form.elements.namedItem('tz') as HTMLInputElement;
  if (form.dataset['detectZone'] === 'true') zoneInput.value = Intl.DateTimeFormat().resolvedOptions().timeZone;

  const list = (selector: string, lines: string[]) => {
    const element = document.querySelector(selector);
    element?.replaceChildren(
      ...lines.map((line) => Object.assign(document.createElement('li'), { textContent: line })),
    );
  };

  const update = () => {
    const plan = planWindowTracker(
      new URLSearchParams(new FormData(form) as unknown as Record<string, string>),
      locale,
    );
    list(
      '#tracker-problems',
      plan.problems.map((problem) => text.problems[problem]),
    );
    list(
      '#tracker-conversions',
      [[plan.reset, plan.resetAt] as const, [plan.weekly, plan.weeklyAt] as const].flatMap(([local, instant]) =>
        local && instant ? [text.converted(local, plan.timeZone, utcMinute(instant))] : [],
      ),
    );
    const link = document.querySelector<HTMLElement>('#tracker-link');
    if (link === null) return;
    link.hidden = plan.calendarPath === null;
    if (plan.calendarPath === null) return;
    document.querySelector<HTMLAnchorElement>('#ics-download')!.href = plan.calendarPath;
    document.querySelector<HTMLInputElement>('#ics-url')!.value = `${baseUrl}${plan.calendarPath}`;
  };

  const copy = document.querySelector<HTMLButtonElement>('#ics-copy');
  if (copy !== null && navigator.clipboard) {
    copy.hidden = false;
    copy.addEventListener('click', async () => {
      await navigator.clipboard.writeText(document.querySelector<HTMLInputElement>('#ics-url')!.value);
      copy.textContent = copy.dataset['copied'] ?? copy.textContent;
    });
  }
  form.addEventListener('input', update);
  update();
}
