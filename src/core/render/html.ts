/**
 * HTML written by hand in TypeScript, escaped by default: the parts of the pages the edge fills in on every request
 * (src/core/page-slots/). Astro's templates escape every value they insert; so does `html`, and only a value that is
 * already `Html` (made by `html` itself, or `trustedHtml`) goes in as is. Written here rather than taken from a
 * library because it is twenty lines and the edge's first request pays for every module it loads.
 */
export class Html {
  readonly value: string;
  constructor(value: string) {
    this.value = value;
  }
  toString(): string {
    return this.value;
  }
}

/** What a template may insert: text (escaped), numbers, HTML, nothing (`null`, `undefined`, `false`), or a list. */
export type HtmlPart = Html | string | number | null | undefined | false | readonly HtmlPart[];

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text as HTML: the five characters that could end an element or an attribute's value, as character references. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (character) => ESCAPES[character]!);

function partHtml(part: HtmlPart): string {
  if (part === null || part === undefined || part === false) return '';
  if (part instanceof Html) return part.value;
  if (typeof part === 'number') return String(part);
  if (typeof part === 'string') return escapeHtml(part);
  return part.map(partHtml).join('');
}

/** A template of HTML: every inserted value is escaped unless it is `Html` already. */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlPart[]): Html {
  let out = strings[0]!;
  for (let index = 0; index < values.length; index += 1) out += partHtml(values[index]!) + strings[index + 1]!;
  return new Html(out);
}

/** HTML this code made or read from the build (a page template), inserted as is. */
export const trustedHtml = (value: string): Html => new Html(value);
