import path from 'node:path';

/**
 * Where workerd keeps the local state (KV, rate-limiter counters) that `npm start` serves and `npm run watch`
 * writes: one folder at the project root, so that a rebuild (which empties dist/) keeps it. Without an
 * explicit folder wrangler would put it beside the built config, inside dist/server.
 */
export const LOCAL_STATE_DIR = path.resolve(import.meta.dirname, '../../.wrangler/state');
