// Moved to scripts/lib/demo/github-receiver.ts, shared by the tests and `npm run demo`.
export * from '../../scripts/lib/demo/github-receiver.ts';
