import { describe, expect, it } from 'vitest';
import {
  buildSourceReport,
  DELAYED_AFTER_MINUTES,
  SourcesResponseSchema,
  sourceHealthLine,
  sourcesResponse,
  type SourceCheck,
  storedSourceReport,
} from './sources.ts';

const CHECKED_AT = '2026-11-23T10:00:00.000Z';
const checkedMs = Date.parse(CHECKED_AT);
const later = (ms: number) => new Date(checkedMs + ms);
const MINUTE = 60_000;

const source = (name: string, ok: boolean): SourceCheck => ({
  provider: 'provider_a',
  name,
  url: `https://feeds.example/${name}.xml`,
  checkedAt: '2026-11-23T09:59:30.000Z',
  ok,
  error: ok ? null : 'HTTP 503',
  itemsSeen: ok ? 20 : 0,
});

/** A report as a watch run stores it: marked with the version of its shape (1). */
const stored = (sources: SourceCheck[], checkedAt = CHECKED_AT) =>
  JSON.stringify({ version: 1, report: { checkedAt, sources } });
const sixSources = (failing: number) =>
  Array.from({ length: 6 }, (_, index) => source(`feed${index}`, index >= failing));

describe('sourcesResponse', () => {
  it('is unknown, not an error, before any report', () => {
    expect(sourcesResponse(null, later(0))).toEqual({
      response: { checkedAt: null, sources: [], state: 'unknown' },
      problem: null,
    });
  });

  it('is current up to exactly 5 minutes, delayed one millisecond later', () => {
    expect(DELAYED_AFTER_MINUTES).toBe(5);
    expect(sourcesResponse(stored(sixSources(0)), later(5 * MINUTE)).response.state).toBe('current');
    expect(sourcesResponse(stored(sixSources(0)), later(5 * MINUTE + 1)).response.state).toBe('delayed');
    expect(sourcesResponse(stored(sixSources(0)), later(0)).response.state).toBe('current');
    // A report stamped a little ahead of the reader's clock is still current.
    expect(sourcesResponse(stored(sixSources(0)), later(-5 * MINUTE)).response.state).toBe('current');
  });

  it('serves the stored sources and time as they were written', () => {
    const sources = sixSources(1);
    const { response, problem } = sourcesResponse(stored(sources), later(4 * MINUTE));
    expect(problem).toBeNull();
    expect(response).toEqual({ checkedAt: CHECKED_AT, sources, state: 'current' });
    expect(SourcesResponseSchema.parse(response)).toEqual(response);
  });

  it('stores a report marked with the version of its shape, and reads it back', () => {
    const report = { checkedAt: CHECKED_AT, sources: sixSources(2) };
    expect(storedSourceReport(report)).toBe(JSON.stringify({ version: 1, report }));
    expect(sourcesResponse(storedSourceReport(report), later(0)).response).toEqual({ ...report, state: 'current' });
  });

  it('does not check a report marked with its own version again: the watch run checked it as it wrote it', () => {
    const unchecked = [{ ...source('a', true), itemsSeen: -1 }];
    expect(sourcesResponse(stored(unchecked), later(0))).toEqual({
      response: { checkedAt: CHECKED_AT, sources: unchecked, state: 'current' },
      problem: null,
    });
  });

  it('reads a report stored before the mark, or marked with another version, by the schema', () => {
    const sources = sixSources(1);
    for (const text of [
      JSON.stringify({ checkedAt: CHECKED_AT, sources }),
      JSON.stringify({ version: 0, report: { checkedAt: CHECKED_AT, sources } }),
    ])
      expect(sourcesResponse(text, later(0))).toEqual({
        response: { checkedAt: CHECKED_AT, sources, state: 'current' },
        problem: null,
      });
    const { response, problem } = sourcesResponse(
      JSON.stringify({ version: 2, report: { checkedAt: 'yesterday', sources } }),
      later(0),
    );
    expect(response.state).toBe('unknown');
    expect(problem).toMatch(/not a SourceReport: checkedAt/);
  });

  it('treats a malformed stored value as unknown and says why', () => {
    for (const [text, why] of [
      ['{not json', /not JSON/],
      ['[]', /not a SourceReport/],
      [JSON.stringify({ checkedAt: 'yesterday', sources: [] }), /checkedAt/],
      [
        JSON.stringify({ checkedAt: CHECKED_AT, sources: [{ ...source('a', true), itemsSeen: -1 }] }),
        /sources\.0\.itemsSeen/,
      ],
      [JSON.stringify({ checkedAt: CHECKED_AT, sources: [], extra: 1 }), /not a SourceReport/],
    ] as const) {
      const { response, problem } = sourcesResponse(text, later(0));
      expect(response).toEqual({ checkedAt: null, sources: [], state: 'unknown' });
      expect(problem).toMatch(why);
    }
  });
});

describe('buildSourceReport', () => {
  it('stamps the run and keeps each result', () => {
    const results = sixSources(2);
    expect(buildSourceReport(results, new Date(CHECKED_AT))).toEqual({ checkedAt: CHECKED_AT, sources: results });
  });

  it('shortens a long error to 500 characters', () => {
    const long = 'x'.repeat(2_000);
    const [check] = buildSourceReport([{ ...source('a', false), error: long }], new Date(CHECKED_AT)).sources;
    expect([...check!.error!]).toHaveLength(500);
    expect(check!.error).toBe(`${'x'.repeat(499)}…`);
  });

  it('refuses a result that would not read back', () => {
    expect(() => buildSourceReport([{ ...source('a', true), url: 'not a url' }], new Date(CHECKED_AT))).toThrow();
  });
});

describe('sourceHealthLine', () => {
  const line = (text: string | null, ms: number, locale: 'en' | 'zh' = 'en') =>
    sourceHealthLine(sourcesResponse(text, later(ms)).response, later(ms), locale);

  it('says all sources answer', () => {
    expect(line(stored(sixSources(0)), 4 * MINUTE)).toBe('sources checked 4 min ago, 6 of 6 answering');
    expect(line(stored(sixSources(0)), 4 * MINUTE, 'zh')).toBe('来源检查于 4 分钟前，6 个中 6 个有响应');
  });

  it('shows failing sources', () => {
    expect(line(stored(sixSources(1)), 4 * MINUTE + 59_999)).toBe(
      'sources checked 4 min ago, 5 of 6 answering, 1 failing',
    );
    expect(line(stored(sixSources(1)), 4 * MINUTE, 'zh')).toBe('来源检查于 4 分钟前，6 个中 5 个有响应，1 个失败');
  });

  it('counts seconds under a minute: a report of the minute cron is that fresh', () => {
    expect(line(stored(sixSources(0)), 40_999)).toBe('sources checked 40 s ago, 6 of 6 answering');
    expect(line(stored(sixSources(0)), 59_999)).toBe('sources checked 59 s ago, 6 of 6 answering');
    expect(line(stored(sixSources(0)), 60_000)).toBe('sources checked 1 min ago, 6 of 6 answering');
    expect(line(stored(sixSources(0)), 1_000)).toBe('sources checked 1 s ago, 6 of 6 answering');
    expect(line(stored(sixSources(0)), 999)).toBe('sources checked just now, 6 of 6 answering');
    expect(line(stored(sixSources(0)), -30_000)).toBe('sources checked just now, 6 of 6 answering');
    expect(line(stored(sixSources(0)), 40_000, 'zh')).toBe('来源检查于 40 秒前，6 个中 6 个有响应');
  });

  it('says the board is delayed, and still shows failures', () => {
    expect(line(stored(sixSources(0)), 3 * 60 * MINUTE + 20 * MINUTE)).toBe('delayed: last check 3 h ago');
    expect(line(stored(sixSources(0)), 5 * MINUTE + 1)).toBe('delayed: last check 5 min ago');
    expect(line(stored(sixSources(0)), 45 * MINUTE + 1)).toBe('delayed: last check 45 min ago');
    expect(line(stored(sixSources(2)), 3 * 24 * 60 * MINUTE)).toBe(
      'delayed: last check 3 d ago, 2 failing, one for over 15 min',
    );
    expect(line(stored(sixSources(0)), 3 * 60 * MINUTE, 'zh')).toBe('已延迟：上次检查在 3 小时前');
  });

  it('says plainly when nothing was checked yet', () => {
    expect(line(null, 0)).toBe('sources not checked yet');
    expect(line('garbage', 0, 'zh')).toBe('尚未检查来源');
  });
});
