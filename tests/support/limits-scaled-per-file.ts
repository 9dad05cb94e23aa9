import { vi } from 'vitest';
import { scaled } from '../../scripts/lib/load-scaled.ts';

/**
 * A setup file of the in-process projects: each file's hang guards (Vitest's 5 s, doubled) scaled by the machine's
 * load when that file starts. These projects run last (vitest.config.ts, IN_PROCESS), when the load may be far above
 * the load at the run's start: limits scaled then let a file's git set-up of about thirty processes outrun its 10 s
 * at a load average of 12. Vitest puts the config back after every file, so each file scales afresh.
 */
const IDLE_LIMIT_MS = 10_000;
vi.setConfig({ testTimeout: scaled(IDLE_LIMIT_MS), hookTimeout: scaled(IDLE_LIMIT_MS) });
