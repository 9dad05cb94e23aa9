import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { makeEvent } from '../test-events.ts';
import { hostileEvents } from './hostile-events.ts';
import { defuseFormulae, renderTimelineCsv, TIMELINE_CSV_COLUMNS } from './timeline-csv.ts';
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
});

describe('defuseFormulae: every line that would start a formula (decisions.md, "One honest answer")', () => {
  it.each<[string, string, string | undefined]>([
    ['a formula', '=1+1', "'=1+1"],
    ['each of the first characters', '+1', "'+1"],
    ['a minus', '-1', "'-1"],
    ['an at sign', '@SUM(A1)', "'@SUM(A1)"],
    ['a tab first', '\t=1', "'\t=1"],
    ['a carriage return first', '\r=1', "'\r'=1"],
    ['a formula on the second line (LF)', 'Limits reset.\n=HYPERLINK("x")', 'Limits reset.\n\'=HYPERLINK("x")'],
    ['after CRLF', 'a\r\n+1', "a\r\n'+1"],
    ['after a lone CR', 'a\r-1', "a\r'-1"],
    ['after a blank line', 'a\r\n\r\n@x', "a\r\n\r\n'@x"],
    ['after LF then CR, a break of its own', 'a\n\r=1', "a\n\r'=1"],
    ['a tab at the start of a later line', 'a\n\tb', "a\n'\tb"],
    ['every line', '=1\n+2\r\n-3\r@4', "'=1\n'+2\r\n'-3\r'@4"],
    ['nothing to do: the characters inside a line', 'a-b\nc=d @e', undefined],
    ['nothing to do: a space before them', ' =1\n +1', undefined],
    ['nothing to do: blank lines of CRLF text', 'a\r\n\r\nb', undefined],
    ['nothing to do: an empty field', '', undefined],
  ])('%s', (_, field, defused) => {
    expect(defuseFormulae(field)).toBe(defused);
  });
});

describe('renderTimelineCsv of multi-line fields', () => {
  it('defuses every line and quotes the field, as written out by hand', () => {
    const event = makeEvent({
      id: 'multi',
      announcedAt: '2026-06-01T00:00:00.000Z',
      summary: 'Limits reset.\n=HYPERLINK("https://evil.example","x")\r\n+1\r-1\n@cmd\n\r=2',
    });
    const single = makeEvent({ id: 'single', announcedAt: '2026-05-31T00:00:00.000Z', summary: '-1' });
    expect(renderTimelineCsv([event, single], BASE)).toBe(
      'id,date,provider,kind,scope,summary,source_url,page_url\r\n' +
        'multi,2026-06-01T00:00:00.000Z,provider_a,reset,global,' +
        '"Limits reset.\n\'=HYPERLINK(""https://evil.example"",""x"")\r\n\'+1\r\'-1\n\'@cmd\n\r\'=2",' +
        'https://posts.provider-a.example/multi,https://board.example/provider_a#event-multi\r\n' +
        'single,2026-05-31T00:00:00.000Z,provider_a,reset,global,"\'-1",' +
        'https://posts.provider-a.example/single,https://board.example/provider_a#event-single\r\n',
    );
  });

  it('parses back with papaparse, and no line of any cell starts a formula', () => {
    const events = hostileEvents();
    const parsed = Papa.parse<string[]>(renderTimelineCsv(events, BASE), { skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.data).toHaveLength(events.length + 1);
    const cells = parsed.data.flat();
    expect(cells.filter((cell) => /^\r/.test(cell))).toEqual([]);
    const lines = cells.flatMap((cell) => cell.split(/\r\n|\r|\n/));
    expect(lines.filter((line) => /^[=+\-@\t]/.test(line))).toEqual([]);
    // The summaries themselves, but for the apostrophes: each line that had one of the characters first.
    const summaries = parsed.data.slice(1).map((row) => row[5]!.replace(/(^|\r\n|\r|\n)'(?=[=+\-@\t\r])/g, '$1'));
    expect(summaries).toEqual(events.map((event) => event.summary));
  });
});
