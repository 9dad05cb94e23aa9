import { describe, expect, it } from 'vitest';
import { LOCALES } from '../languages.ts';
import { TRANSLATIONS } from './index.ts';
import { KIND_LABELS, PROVIDER_LABELS, STATUS_LABELS } from './labels.ts';

/** The languages whose words have been made (a made value replaces its getter: src/core/lazy-record.ts). */
const made = () => LOCALES.filter((code) => Object.getOwnPropertyDescriptor(TRANSLATIONS, code)?.get === undefined);

describe('the labels per language', () => {
  it("make a language's words on the first read of its labels only", () => {
    expect(made()).toEqual([]);
    expect(PROVIDER_LABELS.ja).toStrictEqual(TRANSLATIONS.ja.providers);
    expect(made()).toEqual(['ja']);
  });

  it('hold every language, each from its own words', () => {
    for (const code of LOCALES) {
      expect(PROVIDER_LABELS[code]).toBe(TRANSLATIONS[code].providers);
      expect(KIND_LABELS[code]).toBe(TRANSLATIONS[code].kinds);
      expect(STATUS_LABELS[code]).toBe(TRANSLATIONS[code].statuses);
    }
    expect(Object.keys(PROVIDER_LABELS)).toEqual([...LOCALES]);
  });
});
