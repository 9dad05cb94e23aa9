import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { LOCALES } from '../languages.ts';
import { TRANSLATIONS } from './index.ts';
import { KIND_LABELS, PROVIDER_LABELS, STATUS_LABELS } from './labels.ts';

/**
 * The languages whose words a fresh Node has made after `steps` (a made value replaces its getter:
 * src/core/lazy-record.ts). A process of its own: the in-process files share one module graph, in which other
 * files have read languages already.
 */
function madeInFreshProcess(steps: string): string[] {
  const script = `
    const { TRANSLATIONS } = await import(${JSON.stringify(new URL('./index.ts', import.meta.url).href)});
    const { PROVIDER_LABELS } = await import(${JSON.stringify(new URL('./labels.ts', import.meta.url).href)});
    ${steps}
    const made = Object.keys(TRANSLATIONS).filter((code) => Object.getOwnPropertyDescriptor(TRANSLATIONS, code).get === undefined);
    console.log(JSON.stringify(made));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '--eval', script], { encoding: 'utf8' }));
}

describe('the labels per language', () => {
  it("make a language's words on the first read of its labels only", () => {
    expect(madeInFreshProcess('')).toEqual([]);
    expect(madeInFreshProcess('PROVIDER_LABELS.ja.provider_a;')).toEqual(['ja']);
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
