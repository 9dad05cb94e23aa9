import { describe, expect, it } from 'vitest';
import { deriveBoard } from '../board.ts';
import { compareNewestFirst, MS_PER_DAY } from '../ordering.ts';
import { makeEvent, NOW, resetsWithGaps } from '../test-events.ts';
import { escapeMarkdown, renderBoardMarkdown } from './markdown.ts';
import { TRICKY_SUMMARIES, trickyEvents } from './tricky-events.ts';

const BASE = 'https://board.example';

function render(locale: 'en' | 'zh', events = [...resetsWithGaps([10, 12], 3), ...trickyEvents()], now = NOW) {
  const sorted = [...events].sort(compareNewestFirst);
  return renderBoardMarkdown({ board: deriveBoard(sorted, now), events: sorted, baseUrl: BASE, locale });
}

describe('renderBoardMarkdown', () => {
  it('has a status line per provider with last reset and the next estimate worded as an estimate', () => {
    const markdown = render('en', resetsWithGaps([10, 12], 3));
    for (const label of ['Provider A', 'Provider B', 'Provider C'])
      expect(markdown).toMatch(new RegExp(`^- \\*\\*${label}\\*\\*: `, 'm'));
    expect(markdown).toMatch(
      /\*\*Provider A\*\*: .*last reset 2026-06-12 12:00 UTC \(3\.0 days ago\); next reset, cadence estimate: around 2026-06-23 12:00 UTC \(.*not a vendor schedule\)/,
    );
    expect(markdown).not.toMatch(/scheduled for|will reset on/i);
  });

  it('says "any time now" for an estimate in the past, never "late"', () => {
    const markdown = render('en', resetsWithGaps([2, 2], 10));
    expect(markdown).toContain('any time now');
    expect(markdown).not.toMatch(/\blate\b|missed/i);
  });

  it('lists the six latest announcements with their original post URLs and permalinks', () => {
    const events = trickyEvents();
    const markdown = render('en', events);
    const latestSix = [...events].sort(compareNewestFirst).slice(0, 6);
    for (const event of latestSix) {
      expect(markdown).toContain(`(<${event.sourceUrl}>)`);
      expect(markdown).toContain(`(<${BASE}/${event.provider}#event-${event.id}>)`);
    }
    const omitted = [...events].sort(compareNewestFirst)[6]!;
    expect(markdown).not.toContain(`#event-${omitted.id}`);
  });

  it('lists the machine-readable endpoints with their URLs', () => {
    const markdown = render('en');
    for (const path of [
      '/api/status',
      '/api/timeline',
      '/api/timeline.csv',
      '/feed.xml',
      '/openapi.json',
      '/zh/index.md',
    ]) {
      expect(markdown).toContain(`${BASE}${path}\``);
    }
  });

  it('is a real Chinese translation', () => {
    const markdown = render('zh');
    expect(markdown).toContain('## 状态');
    expect(markdown).toContain('## 最新公告');
    expect(markdown).toContain('## 机器可读接口');
    expect(markdown).toContain('**供应商 A**');
    expect(markdown).toContain('节奏估计');
    expect(markdown).toContain('并非供应商的时间表');
    expect(markdown).not.toMatch(/## (Status|Latest announcements)|last reset|cadence estimate/);
  });

  it('keeps summaries inert: no links, emphasis, headings or line breaks from the data', () => {
    const markdown = render('en', [
      makeEvent({ summary: TRICKY_SUMMARIES.markdown }),
      makeEvent({
        summary: TRICKY_SUMMARIES.lineBreaks,
        announcedAt: new Date(NOW.getTime() - MS_PER_DAY / 2).toISOString(),
      }),
    ]);
    expect(markdown).toContain(escapeMarkdown(TRICKY_SUMMARIES.markdown));
    expect(markdown).not.toContain('[click](https://evil.example)');
    expect(markdown).toContain('First line Second line Third line');
  });

  it('says so when there is nothing yet', () => {
    const markdown = render('en', []);
    expect(markdown).toContain('No announcements yet.');
    expect(markdown).toContain('no reset recorded yet');
  });
});
