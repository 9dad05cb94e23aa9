import { describe, expect, it } from 'vitest';
import * as filledWords from '../core/i18n/filled-words.ts';
import { moduleOfData } from './build-time-modules.ts';

/** The module's source imported as JavaScript, as the bundle would hold it. */
const imported = async (source: string): Promise<Record<string, unknown>> =>
  import(`data:text/javascript,${encodeURIComponent(source)}`) as Promise<Record<string, unknown>>;

describe('build-time modules', () => {
  it('puts the filled words in the bundle exactly as Node makes them, each export as JSON', async () => {
    const source = moduleOfData(filledWords, 'filled-words.ts');
    for (const name of Object.keys(filledWords)) expect(source).toContain(`export const ${name} = JSON.parse(`);
    const bundled = await imported(source);
    expect(Object.keys(bundled).sort()).toEqual(Object.keys(filledWords).sort());
    expect(bundled.FILLED_WORDS).toStrictEqual(filledWords.FILLED_WORDS);
    expect(bundled.ENGLISH_LANGUAGE_NAMES).toStrictEqual(filledWords.ENGLISH_LANGUAGE_NAMES);
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
