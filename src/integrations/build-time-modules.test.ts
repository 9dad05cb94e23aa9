import { describe, expect, it } from 'vitest';
import * as filledWords from '../core/i18n/filled-words.ts';
import * as warmUpData from '../server/page-warm-up-data.ts';
import { moduleOfData as moduleOfDataFrom } from './build-time-modules.ts';

/** The built module's source, its helper imported by URL (a `data:` module resolves no path). */
const LAZY_RECORD_URL = new URL('../core/lazy-record.ts', import.meta.url).href;
const moduleOfData = (exports: Readonly<Record<string, unknown>>, file: string) =>
  moduleOfDataFrom(exports, file, LAZY_RECORD_URL);

/** The module's source imported as JavaScript, as the bundle would hold it. */
const imported = async (source: string): Promise<Record<string, unknown>> =>
  import(`data:text/javascript,${encodeURIComponent(source)}`) as Promise<Record<string, unknown>>;

describe('build-time modules', () => {
  it('puts the filled words in the bundle exactly as Node makes them, each export as JSON', async () => {
    const source = moduleOfData(filledWords, 'filled-words.ts');
    expect(source).toContain('export const ENGLISH_LANGUAGE_NAMES = JSON.parse(');
    expect(source).toContain('export const FILLED_WORDS = lazyRecord(');
    const bundled = await imported(source);
    expect(Object.keys(bundled).sort()).toEqual(Object.keys(filledWords).sort());
    expect(JSON.parse(JSON.stringify(bundled.FILLED_WORDS))).toStrictEqual(filledWords.FILLED_WORDS);
    expect(bundled.ENGLISH_LANGUAGE_NAMES).toStrictEqual(filledWords.ENGLISH_LANGUAGE_NAMES);
  });

  it("puts the pages' warm-up board in the bundle exactly as Node derives it", async () => {
    const bundled = await imported(moduleOfData(warmUpData, 'page-warm-up-data.ts'));
    expect({ ...bundled }).toStrictEqual({ ...warmUpData });
  });

  it('parses the words of a language on its first read only', async () => {
    // A module of its own (a `data:` module is cached by its source): the test above read every language.
    const source = `${moduleOfData(filledWords, 'filled-words.ts')}\n// first reads`;
    const words = (await imported(source)).FILLED_WORDS as Record<string, unknown>;
    const made = (code: string) => Object.getOwnPropertyDescriptor(words, code)?.get === undefined;
    expect(Object.keys(words)).toEqual(Object.keys(filledWords.FILLED_WORDS));
    expect(Object.keys(words).filter(made)).toEqual([]);
    expect(words['zh']).toStrictEqual(filledWords.FILLED_WORDS.zh);
    expect(Object.keys(words).filter(made)).toEqual(['zh']);
  });

  it('keeps text that JSON and JavaScript read differently (quotes, backslashes, line and paragraph separators)', async () => {
    const tricky = { text: 'a "quote", a \\ backslash, `ticks`, $\u007Bno} template, \u2028 and \u2029, </script>' };
    expect((await imported(moduleOfData({ tricky }, 'x.ts'))).tricky).toStrictEqual(tricky);
  });

  it.each([
    ['a function', { f: () => 1 }],
    ['undefined inside', { nested: { gone: undefined } }],
    ['a date', { when: new Date(0) }],
    ['a map', { map: new Map([[1, 2]]) }],
    ['a number JSON cannot hold', { n: Number.NaN }],
  ])('refuses %s, naming the file and the export', (_, value) => {
    const [name] = Object.keys(value);
    expect(() => moduleOfData({ [name ?? '']: Object.values(value)[0] }, 'words.ts')).toThrow(
      `words.ts: the export "${name}" is not plain data`,
    );
  });
});
