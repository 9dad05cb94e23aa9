import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codePointName, refusedAs, unsafeCharacterProblem, unsafeCharacters } from './unsafe-characters.ts';

const EVERY_CODE_POINT = Array.from({ length: 0x110000 }, (_, codePoint) => codePoint);
const refusedIn = (kind: 'prose' | 'name') =>
  EVERY_CODE_POINT.filter((codePoint) => refusedAs(codePoint, kind) !== undefined);

/** XML 1.0 (Fifth Edition) §2.2, the `Char` production, written out from the recommendation. */
const isXmlCharacter = (codePoint: number) =>
  codePoint === 0x9 ||
  codePoint === 0xa ||
  codePoint === 0xd ||
  (codePoint >= 0x20 && codePoint <= 0xd7ff) ||
  (codePoint >= 0xe000 && codePoint <= 0xfffd) ||
  (codePoint >= 0x10000 && codePoint <= 0x10ffff);

describe('the characters a text field may not hold', () => {
  // Counted by hand: C0 32, DEL 1, C1 32; embeddings and overrides 5, isolates 4; surrogates 2,048; noncharacters
  // 32 in U+FDD0–U+FDEF and 2 at the end of each of the 17 planes.
  it('are 2,186 code points in prose, and 5 more in a name (LF, CR and the three bidirectional marks)', () => {
    const prose = refusedIn('prose');
    expect(prose).toHaveLength(65 - 2 + 9 + 2048 + 66);
    const name = refusedIn('name');
    expect(name.filter((codePoint) => !prose.includes(codePoint))).toEqual([0x0a, 0x0d, 0x061c, 0x200e, 0x200f]);
    expect(name).toHaveLength(prose.length + 5);
  });

  it('take in every character XML 1.0 forbids, so a valid event cannot break a feed', () => {
    const forbidden = EVERY_CODE_POINT.filter((codePoint) => !isXmlCharacter(codePoint));
    const prose = new Set(refusedIn('prose'));
    expect(forbidden.filter((codePoint) => !prose.has(codePoint))).toEqual([]);
  });

  it('are the 66 noncharacters, and no other of the last code points of a block', () => {
    const noncharacters = EVERY_CODE_POINT.filter((codePoint) => refusedAs(codePoint, 'prose') === 'a noncharacter');
    expect(noncharacters).toHaveLength(66);
    expect(noncharacters.slice(0, 34).map(codePointName)).toEqual([
      ...Array.from({ length: 32 }, (_, index) => `U+FD${(0xd0 + index).toString(16).toUpperCase()}`),
      'U+FFFE',
      'U+FFFF',
    ]);
    expect(noncharacters.slice(-2).map(codePointName)).toEqual(['U+10FFFE', 'U+10FFFF']);
    expect(unsafeCharacters('\uFFFD\uFFFC\uFDCF\uFDF0\u{1FFFD}\u{10FFFD}', 'prose')).toEqual([]);
  });

  it('find a surrogate only when it is alone, and count positions in characters', () => {
    expect(unsafeCharacters('🚀\uD83D🚀\uDE80x', 'prose')).toEqual([
      { codePoint: 0xd83d, position: 2, what: 'a lone surrogate, half of a UTF-16 pair' },
      { codePoint: 0xde80, position: 4, what: 'a lone surrogate, half of a UTF-16 pair' },
    ]);
    expect(unsafeCharacters('\uD83D\uDE80', 'name')).toEqual([]);
  });

  it('are found wherever one is put into any text without them, at its place', () => {
    // Any text, with what the rule refuses taken out (no lone surrogate is left to pair with the one put in).
    const anyCharacter = fc.integer({ min: 0, max: 0x10ffff }).map((codePoint) => String.fromCodePoint(codePoint));
    const safeText = fc
      .string({ unit: anyCharacter, maxLength: 40 })
      .map((text) => [...text].filter((character) => unsafeCharacters(character, 'name').length === 0).join(''));
    const refused = fc.constantFrom('\u0000', '\u0085', '\u202E', '\u2068', '\uFDD0', '\uFFFF', '\u{10FFFF}', '\uDBFF');
    fc.assert(
      fc.property(safeText, refused, safeText, (before, character, after) => {
        const problem = unsafeCharacterProblem(`${before}${character}${after}`, 'name');
        const codePoint = character.codePointAt(0)!;
        expect(problem?.message).toContain(`holds ${codePointName(codePoint)} (`);
        expect(problem?.message).toContain(`at character ${[...before].length + 1}`);
      }),
      { numRuns: 200 },
    );
  });
});

describe('unsafeCharacterProblem', () => {
  it('is undefined for text that may stay as it is', () => {
    expect(unsafeCharacterProblem('Reset\r\nfor \u200Feveryone 🚀', 'prose')).toBeUndefined();
    expect(unsafeCharacterProblem('provider_a_team', 'name')).toBeUndefined();
  });

  it('names the first character, where it is, how many more there are, and how to find it in the file', () => {
    expect(unsafeCharacterProblem('abc\u202Edef\u0007\u2066', 'prose')).toEqual({
      message:
        'holds U+202E (a bidirectional embedding or override) at character 4, after "abc" (and 2 more such characters)',
      fix: 'delete U+202E (in the JSON it may be written \\u202E; most editors show it as nothing at all), and any other control character (line breaks may stay), bidirectional override, embedding or isolate, noncharacter or lone surrogate',
    });
    expect(unsafeCharacterProblem('\u{1FFFF}x', 'name')).toEqual({
      message: 'holds U+1FFFF (a noncharacter) at character 1, the first',
      fix: 'delete U+1FFFF (in the JSON it may be written \\uD83F\\uDFFF; most editors show it as nothing at all), and any other control character or line break, bidirectional control (override, embedding, isolate or mark), noncharacter or lone surrogate',
    });
  });
});
