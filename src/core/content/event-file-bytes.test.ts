import { describe, expect, it } from 'vitest';
import { decodeEventFile, EVENT_FILE_MAX_BYTES } from './event-file-bytes.ts';

const utf8 = (text: string) => new TextEncoder().encode(text);

describe('decodeEventFile', () => {
  it('gives the text of a UTF-8 file, with a byte order mark at its start left for the validator', () => {
    expect(decodeEventFile('provider_a/x.json', utf8('{"summary": "€ 🚀"}'))).toEqual({
      file: { path: 'provider_a/x.json', text: '{"summary": "€ 🚀"}' },
    });
    expect(decodeEventFile('provider_a/x.json', Uint8Array.of(0xef, 0xbb, 0xbf, ...utf8('{}')))).toEqual({
      file: { path: 'provider_a/x.json', text: '\uFEFF{}' },
    });
  });

  it('refuses bytes that are not UTF-8, naming the offset of the first, instead of turning them into U+FFFD', () => {
    // "Café" saved as Latin-1: the é is the one byte 0xE9, at offset 16.
    const latin1 = Uint8Array.from([...utf8('{"summary": "Caf'), 0xe9, ...utf8('"}')]);
    expect(decodeEventFile('provider_a/x.json', latin1)).toEqual({
      problem: {
        file: 'provider_a/x.json',
        field: null,
        message: 'is not UTF-8: the byte at offset 16 (0xE9) does not start a valid UTF-8 character',
        fix: 'save the file as UTF-8 in your editor (npm run event:add writes UTF-8), and check the text near that place',
      },
    });
  });

  it('refuses more than 16 KiB, and accepts exactly that', () => {
    expect(EVENT_FILE_MAX_BYTES).toBe(16_384);
    expect(decodeEventFile('provider_a/x.json', utf8(' '.repeat(16_384)))).toEqual({
      file: { path: 'provider_a/x.json', text: ' '.repeat(16_384) },
    });
    expect(decodeEventFile('provider_a/x.json', utf8(' '.repeat(16_385)))).toEqual({
      problem: {
        file: 'provider_a/x.json',
        field: null,
        message: 'is 16385 bytes; an event file may be at most 16384 bytes (16 KiB)',
        fix: 'an event file holds one short post: shorten the summary or the audience list',
      },
    });
  });
});
