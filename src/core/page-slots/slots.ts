/**
 * A page as a template the build writes and the edge fills in (docs/performance.md, "Pages from templates"). What a
 * page shows that depends only on the build's events is rendered by Astro at build time; what depends on the clock
 * or the request (status words, relative times, the forecast, the sources' health, a language suggestion) is a
 * slot, written as a marker in the template and filled by the edge with the same functions Astro's own render calls
 * for it (this folder). Both paths hold the same HTML: `tests/page-templates.test.ts`.
 */

/** The marker of a slot in a template: an HTML comment, which escaped text or an attribute value can never hold. */
export const slotMarker = (name: string): string => `<!--slot:${name}-->`;

/** Every slot of a page as its marker: what the build's template is rendered with. */
export const slotMarkers = <Name extends string>(names: readonly Name[]): Record<Name, string> =>
  Object.fromEntries(names.map((name) => [name, slotMarker(name)])) as Record<Name, string>;

/**
 * A template's bytes cut at its markers, once per isolate: `pieces` has one more entry than `names`, and the page is
 * `pieces[0] + slot(names[0]) + pieces[1] + …`. The template stays bytes: decoding a provider page's 220 KB to a
 * string and encoding the filled page again was half of a first request's CPU (docs/performance.md).
 */
export interface SlottedTemplate {
  readonly pieces: readonly Uint8Array[];
  readonly names: readonly string[];
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const OPENING = encoder.encode('<!--slot:');
const CLOSING = encoder.encode('-->');
/** `!`: of the marker's bytes, the one a page holds fewest of (every tag has a `<`, every URL a `:`). */
const EXCLAMATION = OPENING[1]!;

const holdsAt = (bytes: Uint8Array, at: number, expected: Uint8Array): boolean =>
  expected.every((byte, index) => bytes[at + index] === byte);

/** Cuts the template at each `<!--slot:name-->` (a name of lower-case letters and dashes, as slotMarker's). */
export function sliceTemplate(bytes: Uint8Array): SlottedTemplate {
  const pieces: Uint8Array[] = [];
  const names: string[] = [];
  let pieceStart = 0;
  for (let bang = bytes.indexOf(EXCLAMATION); bang !== -1; bang = bytes.indexOf(EXCLAMATION, bang + 1)) {
    const start = bang - 1;
    if (!holdsAt(bytes, start, OPENING)) continue;
    let end = start + OPENING.length;
    while (isNameByte(bytes[end]) && !holdsAt(bytes, end, CLOSING)) end += 1;
    if (end === start + OPENING.length || !holdsAt(bytes, end, CLOSING)) continue;
    pieces.push(bytes.subarray(pieceStart, start));
    names.push(decoder.decode(bytes.subarray(start + OPENING.length, end)));
    pieceStart = end + CLOSING.length;
    bang = pieceStart - 1;
  }
  pieces.push(bytes.subarray(pieceStart));
  return { pieces, names };
}

const isNameByte = (byte: number | undefined): boolean =>
  byte !== undefined && ((byte >= 0x61 && byte <= 0x7a) || byte === 0x2d);

/**
 * The template with each slot filled, taken literally; null when the template does not hold each of `slots` exactly
 * once and no other marker (a template of another build or another page: the caller renders the page anew instead).
 */
export function fillSlots(
  template: SlottedTemplate,
  slots: Readonly<Record<string, string>>,
): Uint8Array<ArrayBuffer> | null {
  const { pieces, names } = template;
  if (names.length !== Object.keys(slots).length || new Set(names).size !== names.length) return null;
  if (!names.every((name) => Object.hasOwn(slots, name))) return null;
  const filled = names.map((name) => encoder.encode(slots[name]));
  let length = 0;
  for (const piece of pieces) length += piece.length;
  for (const slot of filled) length += slot.length;
  const page = new Uint8Array(length);
  let offset = 0;
  pieces.forEach((piece, index) => {
    page.set(piece, offset);
    offset += piece.length;
    const slot = filled[index];
    if (slot !== undefined) {
      page.set(slot, offset);
      offset += slot.length;
    }
  });
  return page;
}
