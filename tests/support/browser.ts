import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type BrowserContextOptions } from 'playwright-core';
import { findChromium } from '../../scripts/lib/chromium.ts';
import { scaled } from '../../scripts/lib/load-scaled.ts';

/**
 * A Chromium driven by playwright-core (no browser download): CHROMIUM_PATH, the one that ships inside an npm
 * package, or Debian's (see scripts/lib/chromium.ts). The flags keep it from reaching for the network this
 * machine does not have.
 */
export async function launchChromium(options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const browser = await findChromium();
  const profile = await mkdtemp(path.join(tmpdir(), 'departures-board-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: browser.executablePath,
    env: { ...process.env, ...browser.env },
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
  // Playwright's limits (30 s for an action or a navigation) are hang guards: scaled by the machine's load, so that
  // a page on a busy machine is waited for, not raced (scripts/lib/load-scaled.ts).
  context.setDefaultTimeout(scaled(30_000));
  context.setDefaultNavigationTimeout(scaled(30_000));
  // The profile goes with the browser; Chromium may still be writing into it for a moment after the close.
  context.on('close', () => {
    rm(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }).catch((error: Error) =>
      console.warn(`the Chromium profile ${profile} was left behind: ${error.message}`),
    );
  });
  return context;
}
