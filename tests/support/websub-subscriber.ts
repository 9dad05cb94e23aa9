// Moved to scripts/lib/demo/websub-subscriber.ts, shared by the tests and `npm run demo`.
export * from '../../scripts/lib/demo/websub-subscriber.ts';
