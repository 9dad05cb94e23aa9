import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { wordsFileProblems } from './checked-words.ts';

/** Words files written here by hand: the reference, and one mistake of each kind a translator can make. */
const EN = {
  greeting: 'Hello {name}',
  days_one: '{count} day',
  days_other: '{count} days',
  formats: { minute: '{year}-{month2}-{day2} {hour}:{minute} {zone}' },
};

const folders: string[] = [];
function wordsFolder(files: Record<string, unknown>): URL {
  const folder = mkdtempSync(join(tmpdir(), 'words-'));
  folders.push(folder);
  for (const [name, content] of Object.entries(files))
    writeFileSync(join(folder, name), typeof content === 'string' ? content : JSON.stringify(content));
  return pathToFileURL(`${folder}/`);
}
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

describe('the words files in the repository', () => {
  it('every one has en.json’s keys, placeholders and its language’s plural forms', () => {
    expect(wordsFileProblems()).toEqual([]);
  });
});

describe('the build’s check of a words file', () => {
  it('accepts a file with the keys, the placeholders and the plural forms of its language', () => {
    const de = { ...EN, greeting: 'Hallo {name}', days_one: '{count} Tag', days_other: '{count} Tage' };
    const ja = {
      greeting: 'こんにちは{name}',
      days_other: '{count}日',
      formats: { minute: '{year}年{month}月{day}日 {hour}:{minute}' },
    };
    expect(wordsFileProblems(wordsFolder({ 'en.json': EN, 'de.json': de, 'ja.json': ja }))).toEqual([]);
  });

  it('names the file, the key and the fix for a missing key', () => {
    const { greeting: _, ...de } = EN;
    expect(wordsFileProblems(wordsFolder({ 'en.json': EN, 'de.json': de }))).toEqual([
      'de.json: "greeting" is missing; add it (en.json has "Hello {name}")',
    ]);
  });

  it('refuses a misspelled placeholder, an unknown key and a date part that does not exist', () => {
    const fr = {
      ...EN,
      greeting: 'Bonjour {nom}',
      days_many: '{count} de jours',
      extra: 'x',
      formats: { minute: '{jour} {hour}' },
    };
    expect(wordsFileProblems(wordsFolder({ 'en.json': EN, 'fr.json': fr }))).toEqual([
      'fr.json: "greeting" names the placeholders {nom}, en.json\'s {name}; use exactly en.json\'s',
      'fr.json: "formats.minute" names {jour}; a date\'s parts are {year, month, month2, monthName, day, day2, weekday, hour, minute, zone}',
      'fr.json: "extra" is not a key of en.json; remove it or correct its name',
    ]);
  });

  it('asks for each plural form the language has, and refuses one it has not', () => {
    const es = { ...EN, days_one: '{count} día', days_other: '{count} días' };
    const zh = { ...EN, days_other: '{count} 天' };
    expect(wordsFileProblems(wordsFolder({ 'en.json': EN, 'es.json': es, 'zh.json': zh }))).toEqual([
      'es.json: "days_many" is missing; this language\'s plural forms are one, many, other',
      'zh.json: "days_one" is a plural form this language does not have (other); remove it',
    ]);
  });

  it('says so when a file is not JSON', () => {
    const [problem] = wordsFileProblems(wordsFolder({ 'en.json': EN, 'ko.json': '{"greeting": ' }));
    expect(problem).toMatch(/^ko\.json: not valid JSON .*; fix its syntax$/);
  });
});
