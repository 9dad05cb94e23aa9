import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { duplicateKeyProblems } from './duplicate-keys.ts';
import { scaled } from '../../../scripts/lib/load-scaled.ts';

// Property tests: a hang guard against a busy machine, not a speed check.
describe('duplicateKeyProblems', { timeout: scaled(60_000) }, () => {
  it('finds nothing in JSON that JSON.stringify wrote, whatever its values, keys and spacing', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(0, 2, '\t', '\n \r'), (value, space) => {
        expect(duplicateKeyProblems('provider_a/x.json', JSON.stringify(value, null, space))).toEqual([]);
      }),
    );
  });

  it('finds a key given twice in any object of any JSON value, with its path', () => {
    fc.assert(
      fc.property(fc.string(), fc.jsonValue(), fc.jsonValue(), (key, first, second) => {
        const text = `{"outer": [null, {${JSON.stringify(key)}: ${JSON.stringify(first)}, ${JSON.stringify(key)}: ${JSON.stringify(second)}}]}`;
        const problems = duplicateKeyProblems('provider_a/x.json', text);
        expect(problems).toContainEqual(
          expect.objectContaining({
            message: expect.stringContaining(`duplicate key ${JSON.stringify(key)} (line 1, columns`),
          }),
        );
      }),
    );
  });

  it('names a key that is not a plain word as a JSON string in the field path', () => {
    const [problem] = duplicateKeyProblems('provider_a/x.json', '{"a b": {"\\u001b[2J": 1, "\\u001b[2J": 2}}');
    expect(problem!.field).toBe('"a b"."\\u001b[2J"');
    expect(problem!.message).toBe(
      'duplicate key "\\u001b[2J" (line 1, columns 10 and 26); JSON keeps only the last, so the file says one thing and publishes another',
    );
  });

  it('refuses a file nested deeper than an event could be, without throwing, at any stack size', () => {
    // 8,000 levels fit in 16 KiB and JSON.parse reads them; a recursive parser would run out of stack.
    const deep = `${'['.repeat(8_000)}${']'.repeat(8_000)}`;
    expect(() => JSON.parse(deep)).not.toThrow();
    expect(duplicateKeyProblems('provider_a/x.json', deep)).toEqual([
      {
        file: 'provider_a/x.json',
        field: null,
        message: 'nests 8000 levels deep; an event nests two (the object, its audience list)',
        fix: 'an event file holds one Event object: see docs/content.md for an example file',
      },
    ]);
    // Brackets inside strings, escaped quotes included, are text, not nesting.
    const brackets = JSON.stringify({ a: '[[[{{{\\"'.repeat(100), b: [[{ c: 1 }]] });
    expect(duplicateKeyProblems('provider_a/x.json', brackets)).toEqual([]);
    expect(duplicateKeyProblems('provider_a/x.json', `${'['.repeat(32)}${']'.repeat(32)}`)).toEqual([]);
    expect(duplicateKeyProblems('provider_a/x.json', `${'['.repeat(33)}${']'.repeat(33)}`)).toEqual([
      expect.objectContaining({ message: 'nests 33 levels deep; an event nests two (the object, its audience list)' }),
    ]);
  });

  it('names the lines of each occurrence when they are on different lines', () => {
    expect(duplicateKeyProblems('provider_a/x.json', '{\n "a": 1,\n "b": 2,\n "a": 3, "a": 4\n}')).toEqual([
      {
        file: 'provider_a/x.json',
        field: 'a',
        message:
          'duplicate key "a" (2:2, 4:2 and 4:10); JSON keeps only the last, so the file says one thing and publishes another',
        fix: 'keep one "a" and delete the others',
      },
    ]);
  });
});
