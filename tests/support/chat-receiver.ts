// Moved to scripts/lib/demo/chat-receiver.ts, shared by the tests and `npm run demo`.
export * from '../../scripts/lib/demo/chat-receiver.ts';
