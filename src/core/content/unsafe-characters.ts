/**
 * The one rule for the characters an event's text may not hold (decisions.md, "One honest answer"): control
 * characters (C0, DEL, C1), the bidirectional overrides, embeddings and isolates (U+202A–U+202E, U+2066–U+2069),
 * the noncharacters (U+FDD0–U+FDEF and the last two code points of every plane, U+FFFE, U+FFFF … U+10FFFF) and
 * lone surrogates (half of a UTF-16 pair, which `"\uD800"` in a JSON file makes). They are invisible or make text
 * display as something else than it says, and those XML 1.0 forbids (most C0 controls, U+FFFE, U+FFFF, lone
 * surrogates) would make every feed that holds them unreadable to an XML parser.
 *
 * Prose (`summary`) may span lines (LF, CR or CRLF, as summaries could before this rule) and may hold the
 * bidirectional marks (U+200E, U+200F, U+061C), which mixed right-to-left text needs and which reorder nothing on
 * their own. A name (`sourceAccount`, an `audience` entry, `sourceUrl`) holds neither.
 *
 * The Event schema applies it (src/core/schemas.ts), so `npm run validate`, the build and `npm run event:add` refuse
 * the same characters with the same message.
 */

export type TextKind = 'prose' | 'name';

const isLineBreak = (codePoint: number) => codePoint === 0x0a || codePoint === 0x0d;
const isBidiMark = (codePoint: number) => codePoint === 0x200e || codePoint === 0x200f || codePoint === 0x061c;

/** What the character is, when `kind` of text may not hold it; undefined when it may. */
export function refusedAs(codePoint: number, kind: TextKind): string | undefined {
  if (isLineBreak(codePoint)) return kind === 'prose' ? undefined : 'a line break';
  if (codePoint === 0x09) return 'a tab, a control character';
  if (codePoint <= 0x1f || (codePoint >= 0x7f && codePoint <= 0x9f)) return 'a control character';
  if (codePoint >= 0x202a && codePoint <= 0x202e) return 'a bidirectional embedding or override';
  if (codePoint >= 0x2066 && codePoint <= 0x2069) return 'a bidirectional isolate';
  if (isBidiMark(codePoint)) return kind === 'prose' ? undefined : 'a bidirectional mark';
  if (codePoint >= 0xd800 && codePoint <= 0xdfff) return 'a lone surrogate, half of a UTF-16 pair';
  if ((codePoint >= 0xfdd0 && codePoint <= 0xfdef) || (codePoint & 0xfffe) === 0xfffe) return 'a noncharacter';
  return undefined;
}

/** `U+202E`, `U+0007`, `U+10FFFF`. */
export const codePointName = (codePoint: number): string =>
  `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;

const SHORT_ESCAPES: Record<number, string> = { 8: '\\b', 9: '\\t', 10: '\\n', 12: '\\f', 13: '\\r' };

/** How the character can be written in a JSON string: `\u202E`, `\n`, `\uD83F\uDFFF` for U+1FFFF. */
function jsonEscape(codePoint: number): string {
  const short = SHORT_ESCAPES[codePoint];
  if (short !== undefined) return short;
  const units = codePoint > 0xffff ? String.fromCodePoint(codePoint) : String.fromCharCode(codePoint);
  return [...Array(units.length).keys()]
    .map((index) => `\\u${units.charCodeAt(index).toString(16).toUpperCase().padStart(4, '0')}`)
    .join('');
}

export interface UnsafeCharacter {
  codePoint: number;
  /** 1-based, in characters (code points), as the summary's length is counted. */
  position: number;
  /** What it is: "a control character", "a bidirectional isolate", … */
  what: string;
}

/** Every character of `text` that `kind` of text may not hold, in order. */
export function unsafeCharacters(text: string, kind: TextKind): UnsafeCharacter[] {
  const found: UnsafeCharacter[] = [];
  let position = 0;
  for (const character of text) {
    position += 1;
    const codePoint = character.codePointAt(0)!;
    const what = refusedAs(codePoint, kind);
    if (what !== undefined) found.push({ codePoint, position, what });
  }
  return found;
}

const CONTEXT_CHARACTERS = 12;

/** Where the character is: its place in characters and the few characters before it, as a JSON string. */
function placeOf(text: string, position: number): string {
  if (position === 1) return 'at character 1, the first';
  const before = [...text].slice(Math.max(0, position - 1 - CONTEXT_CHARACTERS), position - 1).join('');
  return `at character ${position}, after ${JSON.stringify(before)}`;
}

const OTHERS: Record<TextKind, string> = {
  prose:
    'any other control character (line breaks may stay), bidirectional override, embedding or isolate, noncharacter or lone surrogate',
  name: 'any other control character or line break, bidirectional control (override, embedding, isolate or mark), noncharacter or lone surrogate',
};

export interface UnsafeCharacterProblem {
  /** What is wrong and where: the first refused character's code point, what it is and its place. */
  message: string;
  /** How to find and remove it (most editors show none of these characters). */
  fix: string;
}

/**
 * The problem with `text`, or undefined when it holds nothing `kind` of text may not: one problem naming the first
 * refused character and counting the others, so that the field is reported once.
 */
export function unsafeCharacterProblem(text: string, kind: TextKind): UnsafeCharacterProblem | undefined {
  const [first, ...others] = unsafeCharacters(text, kind);
  if (first === undefined) return undefined;
  const name = codePointName(first.codePoint);
  const more =
    others.length === 0 ? '' : ` (and ${others.length} more such character${others.length === 1 ? '' : 's'})`;
  return {
    message: `holds ${name} (${first.what}) ${placeOf(text, first.position)}${more}`,
    fix: `delete ${name} (in the JSON it may be written ${jsonEscape(first.codePoint)}; most editors show it as nothing at all), and ${OTHERS[kind]}`,
  };
}
