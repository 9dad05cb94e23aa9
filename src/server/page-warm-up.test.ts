import { afterEach, describe, expect, it, vi } from 'vitest';
import { warmUpPageSlots } from './page-warm-up.ts';

describe("the pages' warm-up at the isolate's start", () => {
  afterEach(() => vi.restoreAllMocks());

  it('renders its small board without a failure (a failure would be logged, and the warm-up lost)', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    warmUpPageSlots();
    expect(warn).not.toHaveBeenCalled();
  });

  it('logs a failure and never throws it (the worker starts whatever happens)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const board = await import('../core/page-slots/board.ts');
    vi.spyOn(board, 'boardPageSlots').mockImplementation(() => {
      throw new Error('broken');
    });
    expect(() => warmUpPageSlots()).not.toThrow();
    expect(warn).toHaveBeenCalledWith('the pages could not be warmed up at the start:', 'Error: broken');
  });
});
