import { describe, expect, it } from 'vitest';
import { allowsLoopbackReceivers } from './loopback.ts';

describe('allowsLoopbackReceivers', () => {
  it('is off when neither variable is set', () => {
    expect(allowsLoopbackReceivers({})).toBe(false);
  });

  it('is on for ALLOW_LOOPBACK_RECEIVERS=true, the name decisions.md gives', () => {
    expect(allowsLoopbackReceivers({ ALLOW_LOOPBACK_RECEIVERS: 'true' })).toBe(true);
  });

  it('is on for the older PUSH_ALLOW_LOOPBACK_RECEIVER=true', () => {
    expect(allowsLoopbackReceivers({ PUSH_ALLOW_LOOPBACK_RECEIVER: 'true' })).toBe(true);
  });

  it('is on when either is "true", whatever the other says', () => {
    expect(allowsLoopbackReceivers({ ALLOW_LOOPBACK_RECEIVERS: 'true', PUSH_ALLOW_LOOPBACK_RECEIVER: 'false' })).toBe(
      true,
    );
    expect(allowsLoopbackReceivers({ ALLOW_LOOPBACK_RECEIVERS: 'false', PUSH_ALLOW_LOOPBACK_RECEIVER: 'true' })).toBe(
      true,
    );
    expect(allowsLoopbackReceivers({ ALLOW_LOOPBACK_RECEIVERS: 'true', PUSH_ALLOW_LOOPBACK_RECEIVER: 'true' })).toBe(
      true,
    );
  });

  it.each(['', 'false', 'TRUE', 'True', '1', 'yes', 'on', ' true', 'true ', 'true\n', '"true"'])(
    'is off for anything but the exact string "true": %j',
    (value) => {
      expect(allowsLoopbackReceivers({ ALLOW_LOOPBACK_RECEIVERS: value })).toBe(false);
      expect(allowsLoopbackReceivers({ PUSH_ALLOW_LOOPBACK_RECEIVER: value })).toBe(false);
      expect(allowsLoopbackReceivers({ ALLOW_LOOPBACK_RECEIVERS: value, PUSH_ALLOW_LOOPBACK_RECEIVER: value })).toBe(
        false,
      );
    },
  );

  it('ignores every other variable of the environment', () => {
    const env = { PUSH_DB: {}, ALLOW_LOOPBACK: 'true', LOOPBACK: 'true', allow_loopback_receivers: 'true' };
    expect(allowsLoopbackReceivers(env as Parameters<typeof allowsLoopbackReceivers>[0])).toBe(false);
  });
});
