import { describe, expect, it } from 'vitest';
import { MinuteMemo } from './page-memo.ts';

describe("the isolate's memo of this minute's pages", () => {
  it('answers a key with the page kept under it in the same minute, and nothing for another key', () => {
    const memo = new MinuteMemo<string>(4);
    expect(memo.get('/', 100)).toBeUndefined();
    memo.set('/', 100, 'board at 100');
    expect(memo.get('/', 100)).toBe('board at 100');
    expect(memo.get('/zh', 100)).toBeUndefined();
  });

  it('forgets every page when the minute turns, and never keeps a page for a minute that is not the current one', () => {
    const memo = new MinuteMemo<string>(4);
    memo.get('/', 100);
    memo.set('/', 100, 'board at 100');
    expect(memo.get('/', 101)).toBeUndefined();
    expect(memo.size).toBe(0);
    // A render that began in minute 100 and ends after the turn is not kept for minute 101.
    memo.set('/', 100, 'late board of 100');
    expect(memo.get('/', 101)).toBeUndefined();
    // A clock moved back is a minute like another: nothing of minute 101 answers it.
    memo.set('/', 101, 'board at 101');
    expect(memo.get('/', 99)).toBeUndefined();
  });

  it('holds at most its limit, the oldest page going first', () => {
    const memo = new MinuteMemo<number>(3);
    memo.get('a', 7);
    for (const [index, key] of ['a', 'b', 'c', 'd'].entries()) memo.set(key, 7, index);
    expect(memo.size).toBe(3);
    expect(memo.get('a', 7)).toBeUndefined();
    expect([memo.get('b', 7), memo.get('c', 7), memo.get('d', 7)]).toEqual([1, 2, 3]);
    // Keeping a key again replaces its page and makes no room.
    memo.set('d', 7, 30);
    expect(memo.size).toBe(3);
    expect(memo.get('d', 7)).toBe(30);
  });
});
