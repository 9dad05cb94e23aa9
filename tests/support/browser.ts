import {
  chromium,
  type BrowserContext,
  type BrowserContextOptions,
  type ConsoleMessage,
  type Page,
} from 'playwright-core';
import { findChromium } from '../../scripts/lib/chromium.ts';
import { scaled } from '../../scripts/lib/load-scaled.ts';
import { tempFolder } from './temp-folders.ts';

/**
 * A Chromium driven by playwright-core (no browser download): CHROMIUM_PATH, the one that ships inside an npm
 * package, or Debian's (see scripts/lib/chromium.ts). The flags keep it from reaching for the network this
 * machine does not have, and its pages in one renderer process.
 */
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // Every page of a browser in one renderer process, not a new process per page: a new page cost about 0.5 s of
  // CPU and a load in a page used before 0.13 s; with the limit a new page of a context costs about half
  // (docs/testing.md, "Time: 120 s not met"). It does not override site isolation: another site still gets its own.
  '--renderer-process-limit=1',
];

/**
 * Playwright's limits (30 s for an action or a navigation) are hang guards: scaled by the machine's load, so that a
 * page on a busy machine is waited for, not raced (scripts/lib/load-scaled.ts).
 */
function withScaledLimits(context: BrowserContext): BrowserContext {
  context.setDefaultTimeout(scaled(30_000));
  context.setDefaultNavigationTimeout(scaled(30_000));
  return context;
}

/** A Chromium with a profile of its own, as one person's browser (a service worker and push need one). */
export async function launchChromium(options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const browser = await findChromium();
  // Removed after the test file's last hook (tests/support/temp-folders.ts), when Chromium has long stopped writing it.
  const profile = tempFolder('chromium');
  const context = withScaledLimits(
    await chromium.launchPersistentContext(profile, {
      executablePath: browser.executablePath,
      env: { ...process.env, ...browser.env },
      headless: true,
      acceptDownloads: true,
      args: ARGS,
      ...options,
    }),
  );
  return context;
}

/** One browser process whose contexts are each a fresh profile: `launchSharedChromium`. */
export interface SharedChromium {
  newContext(options?: BrowserContextOptions): Promise<BrowserContext>;
  close(): Promise<void>;
}

/**
 * One Chromium for a file whose tests each want a browser of their own (JavaScript off, a client address of their
 * own): each gets a new context, a fresh profile in the one browser (no cookies, storage or cache of another), for
 * a fraction of a launch (a launch is about a second of CPU: the browser, its GPU, network and zygote processes).
 * Not for push: a context without a profile on disk has no push service.
 */
export async function launchSharedChromium(): Promise<SharedChromium> {
  const found = await findChromium();
  const browser = await chromium.launch({
    executablePath: found.executablePath,
    env: { ...process.env, ...found.env },
    headless: true,
    args: ARGS,
  });
  return {
    newContext: async (options = {}) =>
      withScaledLimits(await browser.newContext({ acceptDownloads: true, ...options })),
    close: () => browser.close(),
  };
}

/**
 * One Chromium with two contexts of the same options, JavaScript on and off: the pages read both ways, for a launch
 * less (a launch is about a second of CPU). `close()` ends the browser and both.
 */
export async function launchWithAndWithoutScript(
  options: BrowserContextOptions = {},
): Promise<{ withScript: BrowserContext; noScript: BrowserContext; close(): Promise<void> }> {
  const chromium = await launchSharedChromium();
  const [withScript, noScript] = await Promise.all([
    chromium.newContext(options),
    chromium.newContext({ ...options, javaScriptEnabled: false }),
  ]);
  return { withScript, noScript, close: () => chromium.close() };
}

/**
 * What goes wrong in `page` from now on, as a reader's console would show it: its console errors (a CSP violation
 * among them) and its uncaught exceptions, each with the address of the document it happened in. `stop` ends the
 * watch (for a tab that later loads pages of another test).
 */
export function watchPageErrors(page: Page): { errors: string[]; stop: () => void } {
  const errors: string[] = [];
  const onConsole = (message: ConsoleMessage) => {
    if (message.type() === 'error') errors.push(`${page.url()}: ${message.text()}`);
  };
  const onPageError = (error: Error) => errors.push(`${page.url()}: ${error.message}`);
  page.on('console', onConsole);
  page.on('pageerror', onPageError);
  return {
    errors,
    stop: () => {
      page.off('console', onConsole);
      page.off('pageerror', onPageError);
    },
  };
}
