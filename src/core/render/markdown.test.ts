import { describe, expect, it } from 'vitest';
import { compareNewestFirst, MS_PER_DAY } from '../ordering.ts';
import { boardAnswersAt, makeEvent, NOW, resetsWithGaps } from '../test-events.ts';
import { escapeMarkdown, renderBoardMarkdown } from './markdown.ts';
import { TRICKY_SUMMARIES, trickyEvents } from './tricky-events.ts';

const BASE = 'https://board.example';

function render(
  locale: 'en' | 'zh',
  events = [...resetsWithGaps([10, 12], 3), ...trickyEvents()],
  now = NOW,
  sampleData = false,
) {
  const sorted = [...events].sort(compareNewestFirst);
  const { board, rows } = boardAnswersAt(sorted, now);
  return renderBoardMarkdown({ board, rows, events: sorted, baseUrl: BASE, locale, sampleData });
}

describe('renderBoardMarkdown', () => {
  it('says the data is fictional sample data, right under the title, only when it is', () => {
    const english = render('en', undefined, NOW, true).split('\n');
    const chinese = render('zh', undefined, NOW, true).split('\n');
    expect(english[2]).toMatch(/^\*\*Sample data: .*fictional.*\*\*$/);
    expect(chinese[2]).toMatch(/^\*\*示例数据：.*虚构.*\*\*$/);
    expect(render('en')).not.toMatch(/sample data|fictional/i);
    expect(render('zh')).not.toMatch(/示例数据|虚构/);
  });

  it('has a status line per provider with last reset and the next estimate worded as an estimate', () => {
    const markdown = render('en', resetsWithGaps([10, 12], 3));
    for (const [label, id] of [
      ['Provider A', 'provider_a'],
      ['Provider B', 'provider_b'],
      ['Provider C', 'provider_c'],
    ])
      expect(markdown).toMatch(new RegExp(`^- \\*\\*${label}\\*\\* \\(\`${id}\`\\): `, 'm'));
    expect(markdown).toMatch(
      /\*\*Provider A\*\* \(`provider_a`\): .*last reset 2026-06-12 12:00 UTC \(3\.0 days ago\); Cadence estimate: 2026-06-23 12:00 UTC \(in 8 days\), from the last reset plus the median gap of the last 10 resets \(11\.0 days\), not a vendor schedule\./,
    );
    expect(markdown).not.toMatch(/scheduled for|will reset on/i);
  });

  it('says a past estimate "passed" with its date, never "any time now" or "late"', () => {
    const markdown = render('en', resetsWithGaps([2, 2], 10));
    // Reset 10 days before NOW (2026-06-05 12:00), median gap 2 days: the estimate passed on 2026-06-07 12:00.
    expect(markdown).toContain(
      'Overdue (`overdue`); last reset 2026-06-05 12:00 UTC (10.0 days ago); Cadence estimate passed: 2026-06-07 12:00 UTC,',
    );
    expect(markdown).not.toMatch(/any time now|\blate\b|missed/i);
    expect(render('zh', resetsWithGaps([2, 2], 10))).toContain('节奏估计已过：');
    expect(render('zh', resetsWithGaps([2, 2], 10))).not.toContain('随时');
  });

  it("gives the forecast's likely window as the answer, before the cadence estimate, with the basis named", () => {
    // Gaps of 6, 7, 8, 9 and 10 days, the last reset 6.5 days ago: the gaps longer than the wait are 7, 8, 9
    // and 10 days; their 25th and 75th percentiles (type 7) are 7.75 and 9.25 days after the last reset.
    const markdown = render('en', resetsWithGaps([6, 7, 8, 9, 10], 6.5));
    const lastReset = NOW.getTime() - 6.5 * MS_PER_DAY;
    const at = (days: number) => new Date(lastReset + days * MS_PER_DAY).toISOString().slice(0, 16).replace('T', ' ');
    expect(markdown).toContain(
      `; Likely between ${at(7.75)} UTC and ${at(9.25)} UTC (forecast: the middle half of the past waits that lasted this long); Cadence estimate: ${at(8)} UTC (tomorrow),`,
    );
  });

  it('flags a passed tease that is the latest signal, whatever its age, with its post', () => {
    const tease = makeEvent({
      id: 'old-tease',
      kind: 'tease',
      announcedAt: new Date(NOW.getTime() - 12 * MS_PER_DAY).toISOString(),
      effectiveAt: new Date(NOW.getTime() - 11 * MS_PER_DAY).toISOString(),
    });
    const markdown = render('en', [...resetsWithGaps([10, 10], 20), tease]);
    expect(markdown).toContain(
      `Overdue (\`overdue\`); teased for ${new Date(NOW.getTime() - 11 * MS_PER_DAY).toISOString().slice(0, 16).replace('T', ' ')} UTC (11 days ago) · not confirmed · [the post](<${tease.sourceUrl}>);`,
    );
  });

  it('explains every status word in a legend', () => {
    for (const [locale, heading, line] of [
      [
        'en',
        '## What the status words mean',
        '- **Overdue** (`overdue`): the wait since the last reset is longer than 1.5 × the median gap of the last 10 resets.',
      ],
      [
        'zh',
        '## 状态词说明',
        '- **超过常规间隔**（`overdue`）：距上次重置的等待已超过最近 10 次重置间隔中位数的 1.5 倍。',
      ],
    ] as const) {
      const markdown = render(locale);
      expect(markdown).toContain(heading);
      expect(markdown).toContain(line);
      for (const word of ['reset_now', 'banked', 'tease', 'waiting', 'overdue', 'no_data'])
        expect(markdown.split(heading)[1]).toContain(`\`${word}\``);
    }
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

  it('lists every machine-readable endpoint the spec names (section 4), aliases included, with their URLs', () => {
    for (const locale of ['en', 'zh'] as const) {
      const markdown = render(locale);
      for (const endpoint of [
        'GET /api/status',
        'GET /api/timeline',
        'GET /api/timeline.csv',
        'GET /feed.xml',
        'GET /api/feed',
        'GET /api/ics?provider=',
        'GET /index.md',
        'GET /zh/index.md',
        'POST /mcp',
        'POST /api/mcp',
        'GET /calendar.ics',
        'GET /.well-known/mcp.json',
        'GET /openapi.json',
      ]) {
        const [method, path] = endpoint.split(' ');
        expect(markdown, `${locale}: ${endpoint}`).toContain(`\`${method} ${BASE}${path}`);
      }
    }
  });

  it('names a provider without data by its id as well as its label', () => {
    const onlyA = resetsWithGaps([10, 12], 3).map((event) => ({ ...event, provider: 'provider_a' as const }));
    expect(render('en', onlyA)).toMatch(/^- \*\*[^*]+\*\* \(`provider_c`\): .*\(`no_data`\)/m);
    expect(render('zh', onlyA)).toMatch(/^- \*\*[^*]+\*\*（`provider_c`）：.*（`no_data`）/m);
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
