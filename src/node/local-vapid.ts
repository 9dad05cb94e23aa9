import { generateKeyPairSync } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { LOCAL_STATE_DIR } from './local-state.ts';

/**
 * The VAPID key pair (RFC 8292) that `npm start` and the tests serve with when the environment sets none: made
 * once, kept beside the local state in a git-ignored file, so that a browser's subscription stays valid across
 * restarts. A deployment sets the three secrets itself (docs/delivery.md); a local pair never leaves this machine.
 */

export interface VapidSecrets {
  VAPID_PUBLIC_KEY: string;
  VAPID_PRIVATE_KEY: string;
  VAPID_SUBJECT: string;
}

export const LOCAL_VAPID_FILE = path.join(path.dirname(LOCAL_STATE_DIR), 'vapid-keys.local.json');
const LOCAL_SUBJECT = 'mailto:push@departures-board.invalid';

/** A fresh P-256 pair as Web Push libraries take it: the uncompressed public point and the private scalar. */
export function generateVapidSecrets(subject = LOCAL_SUBJECT): VapidSecrets {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const point = publicKey.export({ format: 'jwk' });
  const scalar = privateKey.export({ format: 'jwk' });
  const uncompressed = Buffer.concat([
    Buffer.from([4]),
    Buffer.from(point.x!, 'base64url'),
    Buffer.from(point.y!, 'base64url'),
  ]);
  return {
    VAPID_PUBLIC_KEY: uncompressed.toString('base64url'),
    VAPID_PRIVATE_KEY: scalar.d!,
    VAPID_SUBJECT: subject,
  };
}

/**
 * The environment's three secrets when it sets them all; else the local pair kept in `file`, made on first use
 * (a test server keeps its own in its state folder, so that a restart on the same state keeps its key).
 */
export async function vapidSecrets(
  environment: NodeJS.ProcessEnv = process.env,
  file: string = LOCAL_VAPID_FILE,
): Promise<VapidSecrets> {
  const { VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, VAPID_SUBJECT } = environment;
  if (VAPID_PUBLIC_KEY && VAPID_PRIVATE_KEY && VAPID_SUBJECT)
    return { VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, VAPID_SUBJECT };
  try {
    return JSON.parse(await readFile(file, 'utf8')) as VapidSecrets;
  } catch {
    const secrets = generateVapidSecrets();
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
    return secrets;
  }
}
