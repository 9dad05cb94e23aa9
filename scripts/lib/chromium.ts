import { accessSync, constants, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * The Chromium that the page tests and `make-og-image` drive, in this order: the one `CHROMIUM_PATH` names; on
 * Linux x64, the Chromium shipped inside the `@sparticuz/chromium` npm package (a headless shell, unpacked to the
 * temp folder on first use); else Debian's `/usr/bin/chromium`. The packaged one makes `npm test` work on a
 * machine with Node only (no browser to install, no `apt-get`), is the same browser on every such machine, and
 * is built for this: the page tests cost half the CPU in it that they cost in the full browser run headless
 * (40 against 74 CPU seconds, docs/performance.md).
 *
 * The headless shell has no notification service (`Notification.permission` reads "denied" and
 * `showNotification` rejects, whatever is granted): the push tests stand in for that one piece
 * (tests/push.browser.test.ts), so that they run in the same browser as the other page tests.
 *
 * The packaged browser brings Latin fonts only; the Chinese and Japanese pages need a CJK font, taken from the
 * `@expo-google-fonts/noto-sans-sc` npm package, the Korean pages a Hangul one, from `@expo-google-fonts/noto-sans-kr`
 * (plain TrueType files: the browser's font stack does not read the WOFF files of web-font packages), handed to the
 * browser through a fontconfig file of its own: without it, Korean was measured and drawn as empty boxes.
 */

export const SYSTEM_CHROMIUM = '/usr/bin/chromium';

export interface ChromiumLaunch {
  executablePath: string;
  /** Extra environment for the browser process (the fontconfig file of the packaged browser). */
  env: Record<string, string>;
  /** Where the browser came from, for messages. */
  origin: 'CHROMIUM_PATH' | 'system' | 'npm package';
}

const require = createRequire(import.meta.url);

/** A regular executable file: a path hidden by a bind mount of /dev/null (a device) does not count. */
function isExecutableFile(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** A fontconfig file that adds the packaged Latin fonts and Noto Sans SC and KR (regular, bold) to the system's. */
async function packagedFontConfig(): Promise<string> {
  const noto = ['sc', 'kr'].map((script) =>
    path.dirname(require.resolve(`@expo-google-fonts/noto-sans-${script}/package.json`)),
  );
  const folder = path.join(tmpdir(), 'departures-board-fontconfig');
  await mkdir(folder, { recursive: true });
  const file = path.join(folder, 'fonts.conf');
  const weights = noto.flatMap((folder) => [path.join(folder, '400Regular'), path.join(folder, '700Bold')]);
  const dirs = [path.join(tmpdir(), 'fonts'), ...weights];
  await writeFile(
    file,
    [
      '<?xml version="1.0"?>',
      '<!DOCTYPE fontconfig SYSTEM "fonts.dtd">',
      '<fontconfig>',
      // The system's configuration when there is one (aliases such as sans-serif, monospace), then ours.
      '  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>',
      ...dirs.map((dir) => `  <dir>${dir}</dir>`),
      `  <cachedir>${path.join(folder, 'cache')}</cachedir>`,
      '</fontconfig>',
      '',
    ].join('\n'),
  );
  return file;
}

export async function findChromium(): Promise<ChromiumLaunch> {
  if (process.env.CHROMIUM_PATH) return { executablePath: process.env.CHROMIUM_PATH, env: {}, origin: 'CHROMIUM_PATH' };
  const packagedFirst = process.platform === 'linux' && process.arch === 'x64';
  if (!packagedFirst && isExecutableFile(SYSTEM_CHROMIUM)) {
    return { executablePath: SYSTEM_CHROMIUM, env: {}, origin: 'system' };
  }
  const { default: packaged } = await import('@sparticuz/chromium');
  const executablePath = await packaged.executablePath();
  return { executablePath, env: { FONTCONFIG_FILE: await packagedFontConfig() }, origin: 'npm package' };
}
