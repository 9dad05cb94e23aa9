import { describe, expect, it } from 'vitest';
import { lazyRecord } from './lazy-record.ts';

describe('lazyRecord', () => {
  it('makes a value on its first read only, and keeps it', () => {
    const made: string[] = [];
    const record = lazyRecord(['a', 'b', 'c'] as const, (key) => {
      made.push(key);
      return { key };
    });
    expect(made).toEqual([]);
    const first = record.b;
    expect(first).toEqual({ key: 'b' });
    expect(record.b).toBe(first);
    expect(made).toEqual(['b']);
  });

  it('reads as a plain record: its keys in order, every value once enumerated', () => {
    const made: string[] = [];
    const record = lazyRecord(['en', 'zh'] as const, (key) => {
      made.push(key);
      return key.toUpperCase();
    });
    expect(Object.keys(record)).toEqual(['en', 'zh']);
    expect(made).toEqual([]);
    expect(Object.entries(record)).toEqual([
      ['en', 'EN'],
      ['zh', 'ZH'],
    ]);
    expect(JSON.parse(JSON.stringify(record))).toEqual({ en: 'EN', zh: 'ZH' });
    expect(made).toEqual(['en', 'zh']);
    expect(Object.hasOwn(record, 'fr')).toBe(false);
  });

  it('cannot be written over once made', () => {
    const record = lazyRecord(['en'] as const, () => 'words') as Record<'en', string>;
    expect(record.en).toBe('words');
    expect(() => {
      record.en = 'other';
    }).toThrow(TypeError);
  });
});
