import { firstInvalidUtf8Offset } from './utf8.ts';
import type { ContentProblem, EventFile } from './validate-event-files.ts';

/**
 * An event file as bytes, before it is JSON: at most 16 KiB, and UTF-8. A decoder that replaces a bad byte with
 * U+FFFD would publish text nobody wrote; a file of many megabytes (an event is under 1 KiB) would cost the
 * validator memory out of all proportion before any rule refused it. The reader checks the size before it reads
 * (src/node/event-files.ts); the validator checks it again for a file handed to it as text.
 */

/** The largest event file, in bytes. An event with every field at its longest is a few KiB. */
export const EVENT_FILE_MAX_BYTES = 16 * 1024;

export const oversizeProblem = (file: string, size: number): ContentProblem => ({
  file,
  field: null,
  message: `is ${size} bytes; an event file may be at most ${EVENT_FILE_MAX_BYTES} bytes (16 KiB)`,
  fix: 'an event file holds one short post: shorten the summary or the audience list',
});

const hexByte = (byte: number): string => `0x${byte.toString(16).toUpperCase().padStart(2, '0')}`;

/**
 * The text of an event file, or the problem with its bytes: any byte that is not UTF-8 is named by its offset. A
 * byte order mark at the start stays in the text (`ignoreBOM`), so that one place accepts it, the validator: the
 * decoder dropping one and the validator another would let a file start with two.
 */
export function decodeEventFile(path: string, bytes: Uint8Array): { file: EventFile } | { problem: ContentProblem } {
  if (bytes.length > EVENT_FILE_MAX_BYTES) return { problem: oversizeProblem(path, bytes.length) };
  try {
    return { file: { path, text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes) } };
  } catch {
    const offset = firstInvalidUtf8Offset(bytes) ?? 0;
    return {
      problem: {
        file: path,
        field: null,
        message: `is not UTF-8: the byte at offset ${offset} (${hexByte(bytes[offset] ?? 0)}) does not start a valid UTF-8 character`,
        fix: 'save the file as UTF-8 in your editor (npm run event:add writes UTF-8), and check the text near that place',
      },
    };
  }
}
