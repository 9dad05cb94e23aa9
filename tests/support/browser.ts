import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type BrowserContextOptions } from 'playwright-core';

/**
 * Debian's Chromium driven by playwright-core (no downloaded browser). The flags keep it from reaching
 * for the network this machine does not have.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchChromium(options: BrowserContextOptions = {}): Promise<BrowserContext> {
  return chromium.launchPersistentContext(await mkdtemp(path.join(tmpdir(), 'departures-board-chromium-')), {
    executablePath: CHROMIUM,
    headless: true,
    acceptDownloads: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    ...options,
  });
}
