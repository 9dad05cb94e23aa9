import type { DeliveryBindings } from '../../bindings.ts';

/** The VAPID keys (RFC 8292) as Web Push libraries take them: base64url public point, private scalar, subject. */
export interface VapidKeys {
  subject: string;
  publicKey: string;
  privateKey: string;
}

/** The three secrets, or `null` while any is missing (push is then unavailable, never half-working). */
export function readVapidKeys(
  env: Pick<DeliveryBindings, 'VAPID_PUBLIC_KEY' | 'VAPID_PRIVATE_KEY' | 'VAPID_SUBJECT'>,
): VapidKeys | null {
  const { VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, VAPID_SUBJECT } = env;
  if (!VAPID_PUBLIC_KEY || !VAPID_PRIVATE_KEY || !VAPID_SUBJECT) return null;
  return { subject: VAPID_SUBJECT, publicKey: VAPID_PUBLIC_KEY, privateKey: VAPID_PRIVATE_KEY };
}
