import { readdirSync, readFileSync } from 'node:fs';
import type { AstroIntegration } from 'astro';
import { wordsProblems } from '../core/i18n/check.ts';

const WORDS_DIRECTORY = new URL('../core/i18n/words/', import.meta.url);

/**
 * Every words file (src/core/i18n/words/<code>.json) against en.json: the same keys, the same placeholders, the
 * plural forms of its language (`Intl.PluralRules`). A file not yet in the list of languages is checked too, so a
 * translator learns of a problem before the language is switched on.
 */
export function wordsFileProblems(directory: URL = WORDS_DIRECTORY): string[] {
  const read = (name: string): unknown => JSON.parse(readFileSync(new URL(name, directory), 'utf8'));
  const reference = read('en.json');
  return readdirSync(directory)
    .filter((name) => name.endsWith('.json'))
    .flatMap((name) => {
      const code = name.slice(0, -'.json'.length);
      let words: unknown;
      try {
        words = read(name);
      } catch (error) {
        return [`${name}: not valid JSON (${error instanceof Error ? error.message : String(error)}); fix its syntax`];
      }
      const categories = new Intl.PluralRules(code).resolvedOptions().pluralCategories;
      return wordsProblems(name, words, categories, reference);
    });
}

/**
 * Stops `astro build` (and `astro dev`) before any work when a words file lacks a key or a placeholder. A listed
 * language without its file stops them earlier still, as their configuration loads the words
 * (src/core/i18n/words-files.ts, `readWordsFile`).
 */
export function checkedWords(): AstroIntegration {
  return {
    name: 'departures-board:checked-words',
    hooks: {
      'astro:config:setup': () => {
        const problems = wordsFileProblems();
        if (problems.length > 0)
          throw new Error(
            `The words files do not match en.json (src/core/i18n/words/README.md):\n${problems.join('\n')}`,
          );
      },
    },
  };
}
