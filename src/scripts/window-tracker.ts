import { dateParts, wallParts } from '../core/i18n/intl.ts';
import { fillText } from '../core/i18n/template.ts';
import { planWindowTracker, type TrackerProblem } from '../core/tracker/plan.ts';
import type { Locale } from '../core/vocabulary.ts';

/**
 * The words come from the page (data attributes written from src/core/i18n), not from an import: the script
 * would otherwise carry every word of every language.
 */
const problemText = (root: HTMLElement, problem: TrackerProblem) =>
  root.dataset[`problem${problem.replace('_', '')}`] ?? problem;
/** The page's sentence with the times in its language's form, as the server writes them (WindowTracker.astro). */
const conversionText = (root: HTMLElement, local: string, zone: string, instant: string) => {
  const wall = wallParts(local);
  const tag = root.ownerDocument.documentElement.lang || 'en';
  return (root.dataset['converted'] ?? '{local} = {utc}')
    .replace('{local}', wall === null ? local : fillText(root.dataset['wallMinuteFormat'] ?? '{local}', wall))
    .replace('{zone}', zone)
    .replace(
      '{utc}',
      fillText(
        root.ownerDocument.documentElement.dataset['minuteFormat'] ?? '{year}-{month2}-{day2} {hour}:{minute} {zone}',
        dateParts(tag, instant),
      ),
    );
};

/** The tracker's conveniences: the detected time zone, the link and the converted times as you type. */
export function enhanceWindowTracker(document: Document): void {
  const root = document.querySelector<HTMLElement>('.tracker');
  const form = document.querySelector<HTMLFormElement>('#tracker-form');
  if (root === null || form === null) return;
  const locale = root.dataset['locale'] as Locale;
  const baseUrl = root.dataset['baseUrl'] ?? '';
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
      plan.problems.map((problem) => problemText(root, problem)),
    );
    list(
      '#tracker-conversions',
      [[plan.reset, plan.resetAt] as const, [plan.weekly, plan.weeklyAt] as const].flatMap(([local, instant]) =>
        local && instant ? [conversionText(root, local, plan.timeZone, instant)] : [],
      ),
    );
    const link = document.querySelector<HTMLElement>('#tracker-link');
    if (link === null) return;
    link.hidden = plan.calendarPath === null;
    if (plan.calendarPath === null) return;
    const download = document.querySelector<HTMLAnchorElement>('#ics-download')!;
    download.href = plan.calendarPath;
    download.download = '';
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
