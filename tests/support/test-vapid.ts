import { generateVapidSecrets, type VapidSecrets } from '../../src/node/local-vapid.ts';
import type { VapidKeys } from '../../src/server/delivery/channels/push/vapid.ts';

/**
 * A fresh VAPID key pair (RFC 8292) for a test, in both forms the code takes it: `secrets`, the three bindings a
 * worker reads, and `keys`, the same pair as the push sender takes it. Converted here, not by the worker's own
 * `readVapidKeys`, so that the keys a test hands over do not come from the code it tests.
 */
export function vapidForTest(subject = 'mailto:test@departures-board.invalid'): {
  secrets: VapidSecrets;
  keys: VapidKeys;
} {
  const secrets = generateVapidSecrets(subject);
  return {
    secrets,
    keys: {
      subject: secrets.VAPID_SUBJECT,
      publicKey: secrets.VAPID_PUBLIC_KEY,
      privateKey: secrets.VAPID_PRIVATE_KEY,
    },
  };
}
