import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeEvent, NOW } from '../test-events.ts';
import { decodeEventFile, EVENT_FILE_MAX_BYTES } from './event-file-bytes.ts';
import { type ContentValidation, formatContentProblem, validateEventFiles } from './validate-event-files.ts';
import { scaled } from '../../../scripts/lib/load-scaled.ts';

/**
 * Hostile event files against the content rules, in-process, as the reader hands them over (bytes through the
 * decoder, then the validator): validation never throws, never lets a bad file through, and names the file in
 * every problem. Each hostile file is a good event with one thing wrong, so the thing tested is what refuses it.
 * A good event written with any of JSON's own whitespace passes, so the checks do not refuse more than they should.
 * FUZZ_RUNS sets the count per property (`npm run fuzz` runs many more).
 */

const RUNS = Number(process.env['FUZZ_RUNS'] ?? 200);
const ROOT = 'content/events';

const event = makeEvent({
  id: 'fuzz-1',
  announcedAt: '2026-06-01T17:05:00.000Z',
  verified: false,
  audience: ['pro', 'team'],
});
const PATH = `provider_a/${event.id}.json`;
const FIELDS = Object.keys(event);
const utf8 = (text: string) => new TextEncoder().encode(text);

/** What the reader and the validator make of one file's bytes. */
function validateBytes(bytes: Uint8Array): ContentValidation {
  const decoded = decodeEventFile(PATH, bytes);
  return 'problem' in decoded ? { events: [], problems: [decoded.problem] } : validateEventFiles([decoded.file], NOW);
}

function expectRefusedAndNamed(bytes: Uint8Array): void {
  let result: ContentValidation | undefined;
  expect(() => {
    result = validateBytes(bytes);
  }).not.toThrow();
  expect(result!.events).toEqual([]);
  expect(result!.problems.length).toBeGreaterThan(0);
  for (const problem of result!.problems) {
    expect(problem.file).toBe(PATH);
    expect(formatContentProblem(problem, ROOT).startsWith(`${ROOT}/${PATH}`)).toBe(true);
  }
}

/** JSON's own whitespace, in runs, for between the tokens. */
const jsonSpace = fc.array(fc.constantFrom(' ', '\t', '\n', '\r'), { maxLength: 4 }).map((run) => run.join(''));
/** Characters people and editors take for whitespace that JSON does not. */
const foreignSpace = fc.constantFrom(
  '\u00A0', // no-break space
  '\u2028', // line separator
  '\u2029', // paragraph separator
  '\u000B', // vertical tab
  '\u000C', // form feed
  '\u200B', // zero-width space
  '\u3000', // ideographic space
  '\uFEFF', // a byte order mark anywhere but at the start
  '\u0085', // next line
);

/** A key as JSON may spell it: plainly, or with some characters as \u escapes. */
const spelling = (key: string): fc.Arbitrary<string> =>
  fc
    .array(fc.boolean(), { minLength: key.length, maxLength: key.length })
    .map(
      (escaped) =>
        `"${[...key].map((character, index) => (escaped[index] ? `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}` : character)).join('')}"`,
    );

type Member = [key: string, value: string];
const members = (): Member[] =>
  Object.entries(event).map(([key, value]) => [JSON.stringify(key), JSON.stringify(value)]);

/** The event's members written out with `space` between every token. */
const write = (list: readonly Member[], space: readonly string[]): string => {
  let at = 0;
  const gap = () => space[at++ % space.length] ?? '';
  return `{${gap()}${list.map(([key, value]) => `${key}${gap()}:${gap()}${value}`).join(`${gap()},${gap()}`)}${gap()}}`;
};

const anyJsonValue = fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value));

// A hang guard, not a speed check: thousands of files with `npm run fuzz`, on a machine that may be busy.
describe('hostile event files', { timeout: scaled(300_000) }, () => {
  it('passes the good event written with any of JSON whitespace, with or without a byte order mark', () => {
    fc.assert(
      fc.property(fc.array(jsonSpace, { minLength: 1, maxLength: 60 }), fc.boolean(), (space, mark) => {
        const text = `${mark ? '\uFEFF' : ''}${write(members(), space)}`;
        const result = validateBytes(utf8(text));
        expect(result.problems).toEqual([]);
        expect(result.events).toEqual([event]);
      }),
      { numRuns: RUNS },
    );
  });

  it('refuses a key given twice, in any spelling, at any place, also after a byte order mark', () => {
    const duplicated = fc
      .tuple(fc.constantFrom(...FIELDS), fc.nat(), fc.oneof(anyJsonValue, fc.constant('true')), fc.boolean())
      .chain(([field, place, value, mark]) =>
        fc.tuple(spelling(field), fc.array(jsonSpace, { minLength: 1, maxLength: 30 })).map(([key, space]) => {
          const list = members();
          list.splice(place % (list.length + 1), 0, [key, value]);
          return `${mark ? '\uFEFF' : ''}${write(list, space)}`;
        }),
      );
    fc.assert(
      fc.property(duplicated, (text) => {
        expectRefusedAndNamed(utf8(text));
        expect(validateBytes(utf8(text)).problems[0]!.message).toMatch(/^duplicate key "/);
      }),
      { numRuns: RUNS },
    );
  });

  it('refuses bytes that are not UTF-8 anywhere in the file, naming the offset', () => {
    const bad = fc.constantFrom(
      [0xff],
      [0xfe],
      [0x80],
      [0xc0, 0xaf],
      [0xe0, 0x80, 0xaf],
      [0xed, 0xa0, 0x80],
      [0xe2, 0x82],
      [0xf4, 0x90, 0x80, 0x80],
      [0xf8, 0x88, 0x80, 0x80, 0x80],
    );
    fc.assert(
      fc.property(fc.nat(), bad, (place, sequence) => {
        const good = utf8(JSON.stringify(event, null, 2));
        // Anywhere in the good file: its text is all ASCII, so every place is between two characters.
        const at = place % (good.length + 1);
        const bytes = Uint8Array.from([...good.subarray(0, at), ...sequence, ...good.subarray(at)]);
        expectRefusedAndNamed(bytes);
        expect(validateBytes(bytes).problems).toEqual([
          expect.objectContaining({ message: expect.stringContaining(`is not UTF-8: the byte at offset ${at} `) }),
        ]);
      }),
      { numRuns: RUNS },
    );
  });

  it('refuses a file over 16 KiB, in whitespace, in a field or in the middle of a value', () => {
    const oversize = fc.integer({ min: EVENT_FILE_MAX_BYTES + 1, max: 8 * EVENT_FILE_MAX_BYTES }).chain((size) =>
      fc.oneof(
        jsonSpace
          .filter((space) => space !== '')
          .map((space) => {
            const text = JSON.stringify(event);
            return `${text}${space.repeat(Math.ceil((size - text.length) / space.length))}`;
          }),
        fc.constant(JSON.stringify({ ...event, summary: 'x'.repeat(size) })),
        fc.constant(JSON.stringify({ ...event, audience: Array.from({ length: Math.ceil(size / 6) }, () => 'pro') })),
      ),
    );
    fc.assert(
      fc.property(oversize, (text) => {
        expectRefusedAndNamed(utf8(text));
        expect(validateBytes(utf8(text)).problems).toEqual([
          expect.objectContaining({
            message: expect.stringMatching(/^is \d+ bytes; an event file may be at most 16384/),
          }),
        ]);
      }),
      { numRuns: Math.min(RUNS, 200) },
    );
  });

  it('refuses deep nesting, huge numbers and other values in place of a field', () => {
    // From two levels: `[]` is a good audience.
    const nested = fc
      .integer({ min: 2, max: 8_000 })
      .chain((depth) =>
        fc.constantFrom(
          `${'['.repeat(depth)}${']'.repeat(depth)}`,
          `${'{"a":'.repeat(Math.min(depth, 3_000))}1${'}'.repeat(Math.min(depth, 3_000))}`,
        ),
      );
    const number = fc.oneof(
      fc.constantFrom(
        '1e999',
        '-1e999',
        '1e-999',
        '-0',
        '0.0',
        '123456789012345678901234567890',
        `1${'0'.repeat(400)}`,
        '1E+2',
      ),
      fc.double().filter(Number.isFinite).map(String),
    );
    fc.assert(
      fc.property(fc.constantFrom(...FIELDS), fc.oneof(nested, number), (field, value) => {
        const text = write(
          members().map(([key, old]): Member => (key === JSON.stringify(field) ? [key, value] : [key, old])),
          [' '],
        );
        expectRefusedAndNamed(utf8(text));
      }),
      { numRuns: RUNS },
    );
  });

  it('refuses whitespace that JSON does not know between tokens, and a second byte order mark', () => {
    // The event is written with 44 gaps between tokens; the list of spaces is shorter, so every one is used.
    fc.assert(
      fc.property(
        fc.array(fc.oneof(jsonSpace, foreignSpace), { minLength: 1, maxLength: 40 }),
        foreignSpace,
        fc.nat(),
        (space, foreign, place) => {
          const spaces = [...space];
          spaces[place % spaces.length] = foreign;
          const text = write(members(), spaces);
          expectRefusedAndNamed(utf8(text));
          expectRefusedAndNamed(utf8(`\uFEFF\uFEFF${JSON.stringify(event)}`));
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('never throws on any bytes or text, and names the file in every problem', () => {
    const anyText = fc.oneof(fc.string({ unit: 'binary', maxLength: 300 }), fc.json(), anyJsonValue);
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 300 }), anyText.map(utf8)), (bytes) => {
        let result: ContentValidation | undefined;
        expect(() => {
          result = validateBytes(bytes);
        }).not.toThrow();
        for (const problem of result!.problems) expect(problem.file).toBe(PATH);
        // Whatever passes is an Event that the same rules accept again.
        for (const accepted of result!.events)
          expect(validateEventFiles([{ path: PATH, text: JSON.stringify(accepted) }], NOW).problems).toEqual([]);
      }),
      { numRuns: RUNS },
    );
  });
});
