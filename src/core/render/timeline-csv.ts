import Papa from 'papaparse';
import type { Event } from '../schemas.ts';
import { eventPageUrl } from '../site.ts';

/** Spec 2.9, in this order. */
export const TIMELINE_CSV_COLUMNS = [
  'id',
  'date',
  'provider',
  'kind',
  'scope',
  'summary',
  'source_url',
  'page_url',
] as const;

const CRLF = '\r\n';

/** A field that a spreadsheet would run as a formula: it starts with =, +, -, @, a tab or a carriage return. */
const FORMULA_START = /^[=+\-@\t\r]/;
/**
 * A line of a multi-line field that starts the same way: after a line break (CRLF, CR or LF; a CR right after a
 * break is a break of its own, so no line after the first starts with one).
 */
const FORMULA_LINE_START = /(\r\n|\r|\n)(?=[=+\-@\t])/g;

/**
 * Every line of the field that would start a formula gets a leading apostrophe (the OWASP advice, papaparse's
 * escapeFormulae for the first line, which a spreadsheet cell or a tool that reads line by line would otherwise
 * run); undefined when there is none.
 */
export function defuseFormulae(field: string): string | undefined {
  const defused = (FORMULA_START.test(field) ? `'${field}` : field).replace(FORMULA_LINE_START, "$1'");
  return defused === field ? undefined : defused;
}

/**
 * RFC 4180: header first, quoted only where needed, inner quotes doubled, CRLF after every row. A field with a
 * line that a spreadsheet would run as a formula is defused on every such line (defuseFormulae) and quoted, as
 * papaparse's escapeFormulae quotes what it defuses; docs/security.md says why.
 */
export function renderTimelineCsv(events: readonly Event[], baseUrl: string): string {
  const defused = new Set<string>();
  const cell = (text: string): string => {
    const safe = defuseFormulae(text);
    if (safe === undefined) return text;
    defused.add(safe);
    return safe;
  };
  const rows = events.map((event) =>
    [
      event.id,
      event.announcedAt,
      event.provider,
      event.kind,
      event.scope,
      event.summary,
      event.sourceUrl,
      eventPageUrl(baseUrl, event),
    ].map(cell),
  );
  return (
    Papa.unparse([[...TIMELINE_CSV_COLUMNS], ...rows], {
      newline: CRLF,
      quotes: (value: unknown) => typeof value === 'string' && defused.has(value),
    }) + CRLF
  );
}
