import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstInvalidUtf8Offset, utf8ByteLength } from './utf8.ts';
import { scaled } from '../../../scripts/lib/load-scaled.ts';

const bytes = (...values: number[]) => Uint8Array.from(values);

// Property tests: a hang guard against a busy machine, not a speed check.
describe('firstInvalidUtf8Offset', { timeout: scaled(60_000) }, () => {
  it.each<[string, Uint8Array, number | undefined]>([
    ['ASCII', bytes(0x7b, 0x7d), undefined],
    [
      'two, three and four byte characters (é, €, 🚀)',
      bytes(0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x9a, 0x80),
      undefined,
    ],
    ['a byte order mark', bytes(0xef, 0xbb, 0xbf, 0x7b), undefined],
    ['a byte that starts nothing (Latin-1 "é")', bytes(0x61, 0xe9, 0x62), 1],
    ['a lone continuation byte', bytes(0x61, 0x80), 1],
    ['an overlong "/" (C0 AF)', bytes(0x2f, 0xc0, 0xaf), 1],
    ['an overlong three-byte form (E0 80 AF)', bytes(0xe0, 0x80, 0xaf), 0],
    ['a UTF-16 surrogate (ED A0 80)', bytes(0x61, 0xed, 0xa0, 0x80), 1],
    ['a code point above U+10FFFF (F4 90 80 80)', bytes(0xf4, 0x90, 0x80, 0x80), 0],
    ['a character cut off at the end', bytes(0x61, 0x62, 0xe2, 0x82), 2],
    ['a character cut off by ASCII', bytes(0xe2, 0x41, 0x42), 0],
    ['UTF-16 with its byte order mark', bytes(0xff, 0xfe, 0x7b, 0x00), 0],
  ])('%s', (_, input, offset) => {
    expect(firstInvalidUtf8Offset(input)).toBe(offset);
  });

  it('finds a bad byte exactly when a fatal TextDecoder refuses the bytes', () => {
    const decoder = new TextDecoder('utf-8', { fatal: true });
    const refuses = (input: Uint8Array) => {
      try {
        decoder.decode(input);
        return false;
      } catch {
        return true;
      }
    };
    // Mostly bytes near the boundaries of the UTF-8 ranges, where a scan goes wrong if it goes wrong at all.
    const byte = fc.oneof(
      fc.integer({ min: 0, max: 255 }),
      fc.constantFrom(
        0x7f,
        0x80,
        0x8f,
        0x90,
        0x9f,
        0xa0,
        0xbf,
        0xc0,
        0xc1,
        0xc2,
        0xdf,
        0xe0,
        0xed,
        0xef,
        0xf0,
        0xf4,
        0xf5,
        0xff,
      ),
    );
    fc.assert(
      fc.property(
        fc.array(byte, { maxLength: 12 }).map((values) => Uint8Array.from(values)),
        (input) => {
          expect(firstInvalidUtf8Offset(input) !== undefined).toBe(refuses(input));
        },
      ),
      { numRuns: 5_000 },
    );
  });
});

describe('utf8ByteLength', { timeout: scaled(60_000) }, () => {
  it('counts as TextEncoder encodes, lone surrogates as U+FFFD', () => {
    expect(utf8ByteLength('a é € 🚀')).toBe(1 + 1 + 2 + 1 + 3 + 1 + 4);
    expect(utf8ByteLength('\uD800x')).toBe(4);
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(utf8ByteLength(text)).toBe(new TextEncoder().encode(text).length);
      }),
    );
  });
});
