import { NOW } from '../../src/core/test-events.ts';

/** The time `minutes` after `from` (before it when negative), by default after the fixtures' `NOW`. */
export const minutesFrom = (minutes: number, from: Date = NOW): Date => new Date(from.getTime() + minutes * 60_000);
