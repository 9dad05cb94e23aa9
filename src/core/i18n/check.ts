/**
 * The check of a language's words file against the reference (en.json), run by the build
 * (src/integrations/checked-words.ts) and by the tests: the same keys, the same placeholders per key, and for each
 * plural key the forms (CLDR categories) the language has. Each problem names the file, the key and the fix, so
 * that a translator can act on the build's message alone.
 */

/** The CLDR plural categories, the suffixes of plural keys (`days_one`, `days_other`). */
export const PLURAL_CATEGORIES = ['zero', 'one', 'two', 'few', 'many', 'other'] as const;
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;
const PLACEHOLDER = /\{(\w+)\}/g;
/** The parts a date pattern (`formats.*`) may name, each language in its own order (words/README.md). */
export const DATE_PARTS = ['year', 'month', 'month2', 'monthName', 'day', 'day2', 'weekday', 'hour', 'minute', 'zone'];
/** The parts a wall-clock pattern may name: a typed time has no zone and no names. */
const WALL_PARTS = ['year', 'month', 'month2', 'day', 'day2', 'hour', 'minute'];

/** A words file's strings by dotted key (`ui.nav.board`; a list's items `ui.aboutPage.terms.0`). */
export function leaves(value: unknown, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (node: unknown, path: string): void => {
    if (typeof node === 'string') out.set(path, node);
    else if (Array.isArray(node)) for (const [index, item] of node.entries()) visit(item, `${path}.${index}`);
    else if (node !== null && typeof node === 'object') {
      for (const [key, child] of Object.entries(node)) visit(child, path === '' ? key : `${path}.${key}`);
    } else out.set(path, String(node));
  };
  visit(value, prefix);
  return out;
}

/** The placeholders a string names, sorted: `{b} {a} {a}` → `a, b`. */
export const placeholders = (text: string): string =>
  [...new Set(Array.from(text.matchAll(PLACEHOLDER), (match) => match[1]))].sort().join(', ');

/** A plural form names the reference's placeholders, except that it may leave out `{count}` ("a day"). */
const pluralPlaceholdersFit = (own: string, expected: string): boolean =>
  own === expected ||
  own ===
    expected
      .split(', ')
      .filter((name) => name !== 'count')
      .join(', ');

/** `ui.days_one` → `ui.days`; any other key is its own base. */
const pluralBase = (key: string): string | null => (PLURAL_SUFFIX.test(key) ? key.replace(PLURAL_SUFFIX, '') : null);

/**
 * Every problem of `file` (the words of a language whose plural categories are `categories`, from
 * `Intl.PluralRules`) against `reference`, en.json's words.
 */
export function wordsProblems(
  file: string,
  words: unknown,
  categories: readonly string[],
  reference: unknown,
): string[] {
  const problems: string[] = [];
  // In CLDR's order, whatever order the runtime gives them in.
  categories = PLURAL_CATEGORIES.filter((category) => categories.includes(category));
  const mine = leaves(words);
  const theirs = leaves(reference);
  const pluralBases = new Map<string, string>();
  for (const [key, text] of theirs) {
    const base = pluralBase(key);
    if (base === null) {
      const own = mine.get(key);
      if (own === undefined) problems.push(`${file}: "${key}" is missing; add it (en.json has "${text}")`);
      else if (key.startsWith('formats.')) {
        const allowed = key === 'formats.wallMinute' ? WALL_PARTS : DATE_PARTS;
        const wrong = placeholders(own)
          .split(', ')
          .filter((name) => name !== '' && !allowed.includes(name));
        if (wrong.length > 0)
          problems.push(`${file}: "${key}" names {${wrong.join(', ')}}; a date's parts are {${allowed.join(', ')}}`);
      } else if (placeholders(own) !== placeholders(text))
        problems.push(
          `${file}: "${key}" names the placeholders {${placeholders(own)}}, en.json's {${placeholders(text)}}; use exactly en.json's`,
        );
    } else pluralBases.set(base, placeholders(text));
  }
  for (const [base, expected] of pluralBases) {
    for (const category of categories) {
      const own = mine.get(`${base}_${category}`);
      if (own === undefined)
        problems.push(
          `${file}: "${base}_${category}" is missing; this language's plural forms are ${categories.join(', ')}`,
        );
      else if (!pluralPlaceholdersFit(placeholders(own), expected))
        problems.push(
          `${file}: "${base}_${category}" names the placeholders {${placeholders(own)}}; use {${expected}}`,
        );
    }
  }
  for (const key of mine.keys()) {
    const base = pluralBase(key);
    if (base !== null && pluralBases.has(base)) {
      const category = key.slice(base.length + 1);
      if (!categories.includes(category))
        problems.push(
          `${file}: "${key}" is a plural form this language does not have (${categories.join(', ')}); remove it`,
        );
    } else if (!theirs.has(key))
      problems.push(`${file}: "${key}" is not a key of en.json; remove it or correct its name`);
  }
  return problems;
}
