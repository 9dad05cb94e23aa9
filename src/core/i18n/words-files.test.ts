import { describe, expect, it } from 'vitest';
import type { Locale } from '../languages.ts';
import en from './words/en.json' with { type: 'json' };
import { readWordsFile } from './words-files.ts';

describe('the words file of a listed language', () => {
  it('is read by the language’s code, as it is', async () => {
    expect(await readWordsFile('en')).toEqual(en);
  });

  it('stops the load when it is missing, naming the file and the fix', async () => {
    await expect(readWordsFile('it' as Locale)).rejects.toThrow(
      'src/core/languages.ts lists the language it, but src/core/i18n/words/it.json cannot be read: add it (a copy of en.json, translated: src/core/i18n/words/README.md).',
    );
  });
});
