import Papa from 'papaparse';
import type { ProviderFilter } from '../api/query.ts';
import type { Event } from '../schemas.ts';
import { eventPageUrl, SERVICE_MACHINE_NAME } from '../site.ts';

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

/**
 * RFC 4180: header first, quoted only where needed, inner quotes doubled, CRLF after every row. A field that
 * a spreadsheet would run as a formula (it starts with =, +, -, @, a tab or a carriage return) gets a
 * leading apostrophe (papaparse's escapeFormulae, the OWASP advice); docs/security.md says why.
 */
export function renderTimelineCsv(events: readonly Event[], baseUrl: string): string {
  const rows = events.map((event) => [
    event.id,
    event.announcedAt,
    event.provider,
    event.kind,
    event.scope,
    event.summary,
    event.sourceUrl,
    eventPageUrl(baseUrl, event),
  ]);
  return Papa.unparse([[...TIMELINE_CSV_COLUMNS], ...rows], { newline: CRLF, escapeFormulae: true }) + CRLF;
}

export const timelineCsvFileName = (provider: ProviderFilter): string =>
  `${SERVICE_MACHINE_NAME}-timeline-${provider}.csv`;
