import { LANGUAGES, type Locale, languageOf, type MarkdownEndpointId, markdownEndpointId } from '../languages.ts';
import { languageNames } from './intl.ts';
import { fillText } from './template.ts';
import { constantValues, fillSome, WORDS_FILES, type Words } from './words-files.ts';

/**
 * Every language's words as the service reads them: its words file with the shared constants filled (`{service}`,
 * the limits in the language's number forms) and the Markdown mirrors' titles, one per language, each naming its
 * language in this one's words; and the languages' names in English. Plain data, all of it known before the service
 * runs: the build evaluates this module once and puts its value in the bundle as JSON
 * (src/integrations/build-time-modules.ts), so a new isolate parses the result instead of making it for eight
 * languages; Node (the tests, the commands) evaluates it as it is.
 */

/** A language's words with the constants filled and the Markdown mirrors' titles. */
export type FilledWords = Words & { endpoints: Words['endpoints'] & Record<MarkdownEndpointId, string> };

/** Every string with the shared constants filled, the placeholders a page script fills (`{detail}`) kept. */
function filled<T>(node: T, constants: Readonly<Record<string, string>>): T {
  if (typeof node === 'string') return fillSome(node, constants) as T;
  if (Array.isArray(node)) return node.map((item) => filled(item, constants)) as T;
  if (node !== null && typeof node === 'object')
    return Object.fromEntries(Object.entries(node).map(([key, child]) => [key, filled(child, constants)])) as T;
  return node;
}

function filledWords(locale: Locale): FilledWords {
  const words = filled(WORDS_FILES[locale] as Words, constantValues(locale));
  const names = languageNames(languageOf(locale).intl);
  const markdownTitles = Object.fromEntries(
    LANGUAGES.map((language) => [
      markdownEndpointId(language.code),
      fillText(words.endpoints.getMarkdown, { language: names.of(language.code) ?? language.name }),
    ]),
  );
  return { ...words, endpoints: { ...words.endpoints, ...markdownTitles } };
}

export const FILLED_WORDS: Readonly<Record<Locale, FilledWords>> = Object.fromEntries(
  LANGUAGES.map((language) => [language.code, filledWords(language.code)]),
) as Record<Locale, FilledWords>;

/** Each language's name in English (`Chinese`, `Brazilian Portuguese`): the OpenAPI summaries and llms.txt. */
export const ENGLISH_LANGUAGE_NAMES: Readonly<Record<Locale, string>> = Object.fromEntries(
  LANGUAGES.map((language) => [language.code, languageNames('en').of(language.code) ?? language.name]),
) as Record<Locale, string>;
