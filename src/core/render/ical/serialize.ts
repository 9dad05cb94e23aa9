/**
 * RFC 5545 serialization: content lines, TEXT escaping, folding at 75 octets, CRLF. Written here rather
 * than taken from a library: the small generator on npm folds by characters (a Chinese title overflows
 * 75 octets) and the complete one (ical.js) would add some 50 KiB gzip to the worker. ical.js parses
 * every calendar in the tests.
 */

export type IcalProperty =
  /** A TEXT value: escaped. */
  | { name: string; text: string }
  /** A value of another type (DATE-TIME, DURATION, URI, CAL-ADDRESS): written as is. */
  | { name: string; value: string; params?: string };

export interface IcalComponent {
  name: 'VCALENDAR' | 'VEVENT' | 'VALARM';
  properties: IcalProperty[];
  components?: IcalComponent[];
}

const CRLF = '\r\n';
const MAX_LINE_OCTETS = 75;
const encoder = new TextEncoder();

/** RFC 5545 3.3.11: backslash, semicolon, comma and newlines are escaped in TEXT. */
export const escapeText = (text: string): string =>
  text.replace(/[\\;,]/g, (char) => `\\${char}`).replace(/\r\n|\r|\n/g, '\\n');

/** RFC 5545 3.1: lines of at most 75 octets, continued after CRLF + one space, never inside a character. */
export function foldLine(line: string): string {
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = encoder.encode(char).length;
    // A continuation line starts with a space, which counts toward its 75 octets.
    const limit = parts.length === 0 ? MAX_LINE_OCTETS : MAX_LINE_OCTETS - 1;
    if (octets + size > limit) {
      parts.push(current);
      current = '';
      octets = 0;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join(`${CRLF} `);
}

/** `20261121T183000Z`: a UTC DATE-TIME in the basic format. */
export const utcBasic = (ms: number): string =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

function contentLine(property: IcalProperty): string {
  const value = 'text' in property ? escapeText(property.text) : property.value;
  const params = 'params' in property && property.params ? `;${property.params}` : '';
  return foldLine(`${property.name}${params}:${value}`);
}

function componentLines(component: IcalComponent): string[] {
  return [
    `BEGIN:${component.name}`,
    ...component.properties.map(contentLine),
    ...(component.components ?? []).flatMap(componentLines),
    `END:${component.name}`,
  ];
}

export const serializeCalendar = (calendar: IcalComponent): string => componentLines(calendar).join(CRLF) + CRLF;

/** A published calendar: the header every one of ours carries (RFC 5545 3.6 and 3.7), then its events. */
export const publishedCalendar = (
  prodId: string,
  name: string,
  extra: IcalProperty[],
  events: IcalComponent[],
): IcalComponent => ({
  name: 'VCALENDAR',
  properties: [
    { name: 'VERSION', value: '2.0' },
    { name: 'PRODID', text: prodId },
    { name: 'CALSCALE', value: 'GREGORIAN' },
    { name: 'METHOD', value: 'PUBLISH' },
    { name: 'X-WR-CALNAME', text: name },
    ...extra,
  ],
  components: events,
});
