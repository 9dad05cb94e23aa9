import { duplicateKeyProblems } from './duplicate-keys.ts';
import { EVENT_FILE_MAX_BYTES, oversizeProblem } from './event-file-bytes.ts';
import { utf8ByteLength } from './utf8.ts';
import type { ContentProblem } from './validate-event-files.ts';

const BYTE_ORDER_MARK = '\uFEFF';

/**
 * The JSON value of one event file's text, or what stops it from having one: a size over the limit (checked
 * again here for text that did not come through the reader, such as a file a command is about to write), JSON
 * that does not parse, or a key given twice, which JSON.parse would settle by keeping the last one.
 */
export function parseEventJson(file: string, text: string): { raw: unknown } | { problems: ContentProblem[] } {
  const size = utf8ByteLength(text);
  if (size > EVENT_FILE_MAX_BYTES) return { problems: [oversizeProblem(file, size)] };
  // Some editors on Windows start a UTF-8 file with a byte order mark; JSON has no use for it.
  const json = text.startsWith(BYTE_ORDER_MARK) ? text.slice(1) : text;
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (error) {
    return {
      problems: [
        {
          file,
          field: null,
          message: `malformed JSON: ${(error as Error).message}`,
          fix: 'check quotes, commas and brackets near that place (npm run event:add writes a well-formed file)',
        },
      ],
    };
  }
  const duplicates = duplicateKeyProblems(file, json);
  return duplicates.length > 0 ? { problems: duplicates } : { raw };
}
