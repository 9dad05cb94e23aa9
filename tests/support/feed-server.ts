// Moved to scripts/lib/demo/feed-server.ts, shared by the tests and `npm run demo`.
export * from '../../scripts/lib/demo/feed-server.ts';
