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

/** RFC 5545 3.3.11: backslash, semicolon, comma and newlines are escaped in TEXT. */
export const escapeText = (text: string): string =>
  text.replace(/[\\;,]/g, (char) => `\\${char}`).replace(/\r\n|\r|\n/g, '\\n');

/** The UTF-8 length of one code point (a lone surrogate is written as U+FFFD, three octets, as TextEncoder does). */
const utf8Octets = (codePoint: number): number =>
  codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;

// biome-ignore lint/suspicious/noControlCharactersInRegex: any ASCII character is one octet
const ASCII = /^[\u0000-\u007f]*$/;

/** RFC 5545 3.1: lines of at most 75 octets, continued after CRLF + one space, never inside a character. */
export function foldLine(line: string): string {
  // Most lines are short ASCII: one octet per character, nothing to fold.
  if (line.length <= MAX_LINE_OCTETS && ASCII.test(line)) return line;
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = utf8Octets(char.codePointAt(0)!);
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

/** Components alone, every line ended by CRLF: a part of a calendar whose frame is written elsewhere. */
export const serializeComponents = (components: readonly IcalComponent[]): string =>
  components.map((component) => componentLines(component).join(CRLF) + CRLF).join('');

/**
 * A calendar cut where more components go: `head` (its properties and its own components) and `tail` (its END
 * line), so that `head + serializeComponents(more) + tail` is the calendar with `more` after its own components.
 */
export function calendarAround(calendar: IcalComponent): { head: string; tail: string } {
  const tail = `END:${calendar.name}${CRLF}`;
  return { head: serializeCalendar(calendar).slice(0, -tail.length), tail };
}

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
