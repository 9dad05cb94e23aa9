// Moved to scripts/lib/demo/switchable-receiver.ts, shared by the tests and `npm run demo`.
export * from '../../scripts/lib/demo/switchable-receiver.ts';
