import { daysSinceText, fillSegments, type Segment, rowAnswer, rowFactsFromApi } from '../core/board-answer.ts';
import type { Forecast } from '../core/forecast/schemas.ts';
import type { LiveStatusWords } from '../core/live-status.ts';
import { relativeTime } from '../core/render/relative-time.ts';
import type { ProviderStatus } from '../core/schemas.ts';
import { dateParts } from '../core/i18n/intl.ts';
import { fillText } from '../core/i18n/template.ts';
import { localizedPath } from '../core/site.ts';
import { showLocalTimes } from './local-times.ts';

/**
 * Keeps the board's rows current while the page is open (decisions.md, "One honest answer"): every 60 s, while the
 * tab is visible, it reads `/api/status` (and `/api/forecast`, for the likely window) and redraws each row from the
 * same core function and words as the page (src/core/board-answer.ts), then says when. Without JavaScript, or when a
 * read fails, the page stays as it was rendered and says when that was.
 */

const REFRESH_MS = 60_000;

interface Board {
  status: { updatedAt: string; providers: ProviderStatus[] };
  forecast: { providers: Forecast[] } | null;
}

async function readBoard(): Promise<Board | null> {
  try {
    // Revalidated each time (ETag, so a 304 when nothing changed): the browser's cache may hold a minute-old copy.
    const [status, forecast] = await Promise.all([
      fetch('/api/status', { cache: 'no-cache' }),
      fetch('/api/forecast', { cache: 'no-cache' }),
    ]);
    if (!status.ok) return null;
    return {
      status: (await status.json()) as Board['status'],
      forecast: forecast.ok ? ((await forecast.json()) as NonNullable<Board['forecast']>) : null,
    };
  } catch {
    return null; // offline or the service unreachable: the rows stay as they were, and say when that was
  }
}

/** An instant as the page writes it in UTC before the script names the reader's zone (timeHtml's forms, src/core/page-slots/fragments.ts). */
const utcText = (iso: string, words: LiveStatusWords) => fillText(words.minuteFormat, dateParts(words.tag, iso));

function draw(parent: HTMLElement, parts: readonly Segment[], words: LiveStatusWords): void {
  const document = parent.ownerDocument;
  parent.replaceChildren(
    ...parts.map((part) => {
      if ('link' in part) {
        const link = document.createElement('a');
        link.href = part.link;
        link.rel = 'noopener nofollow';
        link.textContent = part.text;
        return link;
      }
      if ('time' in part) {
        const time = document.createElement('time');
        time.dateTime = part.time;
        time.dataset['local'] = '';
        time.textContent = utcText(part.time, words);
        return time;
      }
      return document.createTextNode(part.text);
    }),
  );
}

/** A child of `parent` matching `selector`, made (with `tag` and `className`) when the row had none. */
function slot(parent: HTMLElement, selector: string, make: () => HTMLElement, first = false): HTMLElement {
  const found = parent.querySelector<HTMLElement>(selector);
  if (found !== null) return found;
  const made = make();
  if (first) parent.insertBefore(made, parent.firstChild);
  else parent.appendChild(made);
  return made;
}

function element(document: Document, tag: string, className: string, data: string): HTMLElement {
  const made = document.createElement(tag);
  made.className = className;
  made.setAttribute(data, '');
  return made;
}

function drawRow(tr: HTMLTableRowElement, row: ProviderStatus, forecast: Forecast | null, words: LiveStatusWords) {
  const document = tr.ownerDocument;
  const nowMs = Date.now();
  const { statusNote, answer, estimate } = rowAnswer(
    rowFactsFromApi(row, forecast, nowMs),
    nowMs,
    words.locale,
    words.answer,
  );
  const relative = (iso: string) => relativeTime(Date.parse(iso), nowMs, words.locale);

  const statusCell = tr.querySelector<HTMLElement>('[data-column="status"]');
  const word = statusCell?.querySelector<HTMLAnchorElement>('.status');
  if (statusCell && word) {
    word.textContent = words.statuses[row.status];
    word.dataset['status'] = row.status;
    word.dataset['symbol'] = words.symbols[row.status];
    word.href = `#status-${row.status}`;
    statusCell.querySelector('[data-unconfirmed-tease]')?.remove();
    if (statusNote !== null) {
      draw(
        statusCell.appendChild(element(document, 'span', 'unconfirmed', 'data-unconfirmed-tease')),
        statusNote,
        words,
      );
    }
  }

  const nextCell = tr.querySelector<HTMLElement>('[data-column="next-reset"]');
  if (nextCell) {
    nextCell.dataset['estimate'] = estimate.state;
    nextCell.querySelector('[data-answer]')?.remove();
    if (answer !== null) {
      const line = slot(nextCell, '[data-answer]', () => element(document, 'span', 'answer', 'data-answer'), true);
      line.dataset['answer'] = answer.kind;
      draw(line, answer.parts, words);
      if (answer.basis !== null)
        draw(line.appendChild(element(document, 'span', 'sub', 'data-answer-basis')), answer.basis, words);
    }
    draw(
      slot(nextCell, '[data-estimate-line]', () => element(document, 'span', 'estimate', 'data-estimate-line')),
      estimate.parts,
      words,
    );
  }

  const lastAt = row.lastReset?.effectiveAt ?? row.lastReset?.announcedAt ?? null;
  const lastCell = tr.querySelector<HTMLElement>('[data-column="last-reset"]');
  if (lastCell) {
    if (lastAt === null) lastCell.textContent = words.answer.never;
    else {
      const sub = element(document, 'span', 'sub', 'data-sub');
      draw(sub, [{ time: lastAt }], words);
      lastCell.replaceChildren(document.createTextNode(relative(lastAt)), sub);
    }
  }
  const days = tr.querySelector<HTMLElement>('[data-column="days-since"]');
  if (days) days.textContent = daysSinceText(row.daysSince, words.tag);
  const signalCell = tr.querySelector<HTMLElement>('[data-column="latest-signal"]');
  if (signalCell) {
    const signal = row.latestSignal;
    if (signal === null) signalCell.textContent = '–';
    else {
      const sub = element(document, 'span', 'sub', 'data-sub');
      sub.textContent = relative(signal.announcedAt);
      draw(
        signalCell,
        [
          {
            link: `${localizedPath(`/${row.provider}`, words.locale)}#event-${signal.id}`,
            text: words.kinds[signal.kind],
          },
        ],
        words,
      );
      signalCell.appendChild(sub);
    }
  }
}

async function refresh(board: HTMLElement, words: LiveStatusWords): Promise<void> {
  const read = await readBoard();
  if (read === null) return;
  for (const tr of board.querySelectorAll<HTMLTableRowElement>('tr[data-provider]')) {
    const provider = tr.dataset['provider'];
    const row = read.status.providers.find((candidate) => candidate.provider === provider);
    if (row === undefined) continue;
    const forecast = read.forecast?.providers.find((candidate) => candidate.provider === provider) ?? null;
    drawRow(tr, row, forecast, words);
  }
  const table = board.querySelector<HTMLElement>('table.board');
  if (table) table.dataset['computedAt'] = read.status.updatedAt;
  const note = board.querySelector<HTMLElement>('[data-live-note]');
  if (note) draw(note, fillSegments(words.answer.live, { time: { time: read.status.updatedAt } }), words);
  showLocalTimes(board.ownerDocument);
}

export function keepStatusCurrent(document: Document): void {
  const board = document.querySelector<HTMLElement>('[data-live-status]');
  const raw = board?.dataset['liveStatus'];
  if (!board || raw === undefined) return;
  const words = JSON.parse(raw) as LiveStatusWords;
  let timer: ReturnType<typeof setInterval> | undefined;
  const start = () => {
    timer ??= setInterval(() => void refresh(board, words), REFRESH_MS);
  };
  const stop = () => {
    clearInterval(timer);
    timer = undefined;
  };
  // A tab in the background reads nothing; back in view, it catches up at once.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') stop();
    else {
      void refresh(board, words);
      start();
    }
  });
  if (document.visibilityState !== 'hidden') start();
}
