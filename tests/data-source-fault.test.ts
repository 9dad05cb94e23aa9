import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type DefaultTreeAdapterTypes, parse } from 'parse5';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startServer, type RunningServer } from '../scripts/lib/local-server.ts';
import {
  BOARD_PAGE_DATASET_PATH,
  DATASET_SLICES,
  EDGE_DATASET_PATH,
  EDGE_SUMMARIES_PATH,
} from '../src/core/dataset.ts';
import { LANGUAGES } from '../src/core/languages.ts';
import { attribute, elements } from './support/html-rules.ts';
import { copyBuild } from './support/served-site.ts';

/**
 * The data source made unavailable for real: a copy of the build is served in workerd with its data assets
 * (the data set `/data/board.json`, its slices for the board page, the feeds and the default timeline, and its
 * summaries' own file `/data/summaries.json`) removed or corrupted, and then with them back but a prerendered file
 * missing.
 *
 * Each fault is served by a server started on the changed copy, as a deploy would serve it. Changing the files
 * under a running `wrangler dev` makes it reload, and a request that meets the reload can end wrangler dev
 * itself (it did, twice in one day of loaded runs: the server was gone for the rest of the file; see
 * cloudflare/workers-sdk issues 15317 and 15447). Production never changes a deployed asset in place.
 */

const NEEDS_DATA = [
  '/api/status',
  '/api/status/provider_a',
  '/api/forecast',
  '/api/timeline?provider=provider_a',
  '/api/timeline.csv?limit=5',
  '/index.md',
  '/zh/index.md',
];

let copy: string;
let server: RunningServer | undefined;
/** The data set's files in `client/data`: the whole and each of its slices, which hold the same frame. */
const DATASET_FILES = [
  EDGE_DATASET_PATH,
  BOARD_PAGE_DATASET_PATH,
  ...Object.values(DATASET_SLICES).map(({ path }) => path),
].map((file) => path.posix.basename(file));
const DATA_FILES = [...DATASET_FILES, path.posix.basename(EDGE_SUMMARIES_PATH)];
const dataFile = (name: string) => path.join(copy, 'client/data', name);
const savedFile = (name: string) => path.join(copy, `${name}.saved`);
const writeDataFiles = (body: (name: string) => string) =>
  Promise.all(DATA_FILES.map((name) => writeFile(dataFile(name), body(name))));
const savedData = async (name: string) =>
  JSON.parse(await readFile(savedFile(name), 'utf8')) as Record<string, unknown>;

/** Serves the copy as it now is, on a fresh server. */
async function serveCopy(): Promise<string> {
  await server?.stop();
  server = await startServer({ workerConfig: path.join(copy, 'server/wrangler.json') });
  return server.baseUrl;
}

beforeAll(async () => {
  copy = await mkdtemp(path.join(tmpdir(), 'departures-board-dist-'));
  await copyBuild(inject('builtDir'), copy);
  for (const name of DATA_FILES) await cp(dataFile(name), savedFile(name));
});
afterAll(async () => {
  await server?.stop();
  await rm(copy, { recursive: true, force: true });
});

async function expectInternalError(baseUrl: string, requestPath: string) {
  const response = await fetch(`${baseUrl}${requestPath}`);
  expect(response.status, requestPath).toBe(500);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(response.headers.get('access-control-allow-origin')).toBe('*');
  expect(await response.json()).toEqual({ error: 'internal_error' });
}

/** Each language's words for the page, read from its words file (src/core/i18n/words/<code>.json). */
const unavailableWords = async (code: string) =>
  (
    JSON.parse(await readFile(path.join(import.meta.dirname, `../src/core/i18n/words/${code}.json`), 'utf8')) as {
      ui: { unavailablePage: { heading: string; text: string } };
    }
  ).ui.unavailablePage;

/** The text inside `node`, as a reader sees it without markup. */
const textOf = (node: DefaultTreeAdapterTypes.ChildNode): string =>
  node.nodeName === '#text'
    ? (node as DefaultTreeAdapterTypes.TextNode).value
    : 'childNodes' in node
      ? node.childNodes.map(textOf).join('')
      : '';
/** The page's `<html lang>`, its heading, and each paragraph of `<main>` with its own `lang` (null: the page's). */
function unavailablePageParts(html: string) {
  const page = [...elements(parse(html))];
  const main = [...elements(page.find((element) => element.tagName === 'main')!)];
  return {
    lang: attribute(page.find((element) => element.tagName === 'html')!, 'lang')?.value,
    heading: textOf(main.find((element) => element.tagName === 'h1')!).trim(),
    // The sample-data notice, which every page of a sample build carries, is not the page's own.
    paragraphs: main
      .filter((element) => element.tagName === 'p' && attribute(element, 'data-sample-notice') === undefined)
      .map((element): [string | null, string] => [attribute(element, 'lang')?.value ?? null, textOf(element).trim()]),
  };
}

/**
 * The friendly "unavailable" page (503) for `requestPath`: no stack trace; the page's language (`code`) first, in its
 * heading and words, then every other language's words, each marked as such.
 */
async function expectUnavailablePage(baseUrl: string, requestPath: string, code: string): Promise<Response> {
  const response = await fetch(`${baseUrl}${requestPath}`);
  expect(response.status, requestPath).toBe(503);
  expect(response.headers.get('content-type')).toMatch(/^text\/html/);
  const html = await response.text();
  expect(html).not.toMatch(/DataSourceUnavailable|TypeError|at .*\.mjs/);
  const own = await unavailableWords(code);
  const others = await Promise.all(
    LANGUAGES.filter((language) => language.code !== code).map(
      async (language): Promise<[string, string]> => [language.tag, (await unavailableWords(language.code)).text],
    ),
  );
  expect(unavailablePageParts(html), requestPath).toEqual({
    lang: LANGUAGES.find((language) => language.code === code)!.tag,
    heading: own.heading,
    paragraphs: [[null, own.text], ...others],
  });
  return response;
}

describe('when the data source is unavailable', () => {
  it('a missing data set makes every data route a 500 internal_error, JSON, no stack trace', async () => {
    for (const name of DATA_FILES) await rm(dataFile(name));
    const baseUrl = await serveCopy();
    for (const requestPath of NEEDS_DATA) await expectInternalError(baseUrl, requestPath);
  });

  it.each([
    ['/', 'en'],
    ['/zh', 'zh'],
    ['/provider_b', 'en'],
    ['/ja/provider_c', 'ja'],
    ['/pt-br', 'pt-BR'],
  ])(
    'a missing data set makes the page %s the friendly "unavailable" page (503), in %s first',
    async (requestPath, code) => {
      const response = await expectUnavailablePage(server!.baseUrl, requestPath, code);
      expect(response.headers.get('retry-after')).toBe('60');
    },
  );

  it('a corrupt data set does too', async () => {
    // One of the wrong shape (no build stamp) is refused the same way in-process: functions/app.test.ts.
    await writeDataFiles(() => '{"builtAt": "yesterday", "events": [');
    const baseUrl = await serveCopy();
    for (const requestPath of NEEDS_DATA) await expectInternalError(baseUrl, requestPath);
  });

  /**
   * The saved data files with this build's stamp, provider_a's part replaced: in the data set by `providerA`,
   * in the summaries' file by `summaryA` (left as it was when not given).
   */
  async function stampedWithProviderA(providerA: unknown, summaryA?: unknown): Promise<string> {
    const summaries = await savedData('summaries.json');
    const summaryOf = summaries['summaries'] as Record<string, unknown>;
    for (const name of DATASET_FILES) {
      const board = await savedData(name);
      const providers = board['providers'] as Record<string, unknown>;
      await writeFile(dataFile(name), JSON.stringify({ ...board, providers: { ...providers, provider_a: providerA } }));
    }
    await writeFile(
      dataFile('summaries.json'),
      JSON.stringify({ ...summaries, summaries: { ...summaryOf, provider_a: summaryA ?? summaryOf['provider_a'] } }),
    );
    return serveCopy();
  }

  it('a data set with this build’s stamp but the wrong shape: the API 500 internal_error, the pages 503', async () => {
    const baseUrl = await stampedWithProviderA({ recent: 'not a list' }, { recentGapsMs: null });
    for (const requestPath of NEEDS_DATA) await expectInternalError(baseUrl, requestPath);
    for (const [requestPath, code] of [
      ['/', 'en'],
      ['/zh', 'zh'],
      ['/de/provider_b', 'de'],
    ] as const)
      await expectUnavailablePage(baseUrl, requestPath, code);
  });

  it('a stamped data set of the right frame with a broken event: the pages 503, never a stack trace', async () => {
    const good = (await savedData('board.json')) as { providers: { provider_a: { summary: unknown } } };
    const baseUrl = await stampedWithProviderA({ summary: good.providers.provider_a.summary, recent: [null] });
    // The events themselves are the build's, not checked again on a cold start (docs/performance.md): a page
    // that trips over one is the 503 page through the middleware.
    for (const [requestPath, code] of [
      ['/', 'en'],
      ['/ko', 'ko'],
    ] as const)
      await expectUnavailablePage(baseUrl, requestPath, code);
  });

  it('with the data set back, a missing prerendered timeline or provider feed fails its route only', async () => {
    for (const name of DATA_FILES) await cp(savedFile(name), dataFile(name));
    await rm(path.join(copy, 'client/api/timeline'));
    await rm(path.join(copy, 'client/data/feeds/provider_b.xml'));
    const baseUrl = await serveCopy();
    await expectInternalError(baseUrl, '/api/timeline');
    await expectInternalError(baseUrl, '/feed.xml?provider=provider_b');
    for (const requestPath of [
      ...NEEDS_DATA,
      '/',
      '/provider_b',
      '/feed.xml?provider=provider_a',
      '/feed.json?provider=provider_c',
    ])
      expect((await fetch(`${baseUrl}${requestPath}`)).status, requestPath).toBe(200);
  });
});
