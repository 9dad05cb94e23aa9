// Moved to scripts/lib/demo/recording-receiver.ts, shared by the tests and `npm run demo`.
export * from '../../scripts/lib/demo/recording-receiver.ts';
