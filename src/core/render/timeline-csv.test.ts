import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { renderTimelineCsv, TIMELINE_CSV_COLUMNS, timelineCsvFileName } from './timeline-csv.ts';
import { trickyEvents } from './tricky-events.ts';

const BASE = 'https://board.example';

describe('renderTimelineCsv', () => {
  const events = trickyEvents();
  const csv = renderTimelineCsv(events, BASE);

  it('parses back, with papaparse, to the events, in the spec’s columns (formulas defused)', () => {
    const parsed = Papa.parse<Record<string, string>>(csv, { header: true, skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.meta.fields).toEqual([...TIMELINE_CSV_COLUMNS]);
    expect(parsed.data).toEqual(
      events.map((event) => ({
        id: event.id,
        date: event.announcedAt,
        provider: event.provider,
        kind: event.kind,
        scope: event.scope,
        summary: /^[=+\-@\t\r]/.test(event.summary) ? `'${event.summary}` : event.summary,
        source_url: event.sourceUrl,
        page_url: `${BASE}/${event.provider}#event-${event.id}`,
      })),
    );
  });

  it('ends every record with CRLF and quotes only what needs quoting, doubling inner quotes', () => {
    expect(csv.startsWith(`${TIMELINE_CSV_COLUMNS.join(',')}\r\n`)).toBe(true);
    expect(csv.endsWith('\r\n')).toBe(true);
    expect(csv).toContain('"Reset for Pro, Max, and Team plans"');
    expect(csv).toContain('"They said ""reset soon"" and then: ""done"""');
    expect(csv).toContain('"First line\r\nSecond line\nThird line"');
    expect(csv).toContain(',额度已重置 — naïve café ✅ 🚀,');
  });

  it('never starts a field with a formula character', () => {
    expect(csv).toContain(`"'=HYPERLINK(""https://evil.example"",""reset"")"`);
    const cells = Papa.parse<string[]>(csv, { skipEmptyLines: true }).data.flat();
    expect(cells.filter((cell) => /^[=+\-@]/.test(cell))).toEqual([]);
  });

  it('is a header row alone when there are no events', () => {
    expect(renderTimelineCsv([], BASE)).toBe(`${TIMELINE_CSV_COLUMNS.join(',')}\r\n`);
  });

  it('names its file after the provider selection', () => {
    expect(timelineCsvFileName('all')).toBe('departures-board-timeline-all.csv');
    expect(timelineCsvFileName('provider_b')).toBe('departures-board-timeline-provider_b.csv');
  });
});
