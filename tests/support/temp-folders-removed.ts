import { afterAll } from 'vitest';
import { removeTempFolders } from './temp-folders.ts';

// Registered before the test file's own hooks, so it runs after them (Vitest runs after-hooks last-registered first):
// the servers and browsers that use a folder have stopped by then.
afterAll(removeTempFolders);
