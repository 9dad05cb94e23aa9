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

const MARKER = /<!--slot:([a-z-]+)-->/g;

/**
 * The template with each slot filled; null when the template does not hold each of `slots` exactly once and no
 * other marker (a template of another build or another page: the caller renders the page anew instead).
 */
export function fillSlots(template: string, slots: Readonly<Record<string, string>>): string | null {
  const seen = new Set<string>();
  let valid = true;
  const filled = template.replace(MARKER, (marker, name: string) => {
    if (!Object.hasOwn(slots, name) || seen.has(name)) {
      valid = false;
      return marker;
    }
    seen.add(name);
    return slots[name]!;
  });
  return valid && seen.size === Object.keys(slots).length ? filled : null;
}
