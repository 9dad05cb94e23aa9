// `npm run audit:html`: the Nu HTML Checker (the W3C's validator, npm package `vnu-jar`) over every page in every
// language, the 404 page and the tracker with a made link (scripts/lib/audited-pages.ts); prints the errors and
// warnings of each page and the totals, and exits 1 when there is any. It needs Java 17 or later, which `npm test`
// does not: there, tests/html-markup.test.ts checks the same rules that were broken once, with parse5.
//
// By default it builds the site in a copy of the project (its own output folder and local state; the checkout's
// dist/ and a running `npm start` are left alone) and serves that build on a free port. `--url <address>` audits
// a server that is already running instead (`npm start`, a deployment).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { siteUrl } from '../src/node/site-url.ts';
import { auditedPages } from './lib/audited-pages.ts';
import { buildSite, startServer, type RunningServer } from './lib/local-server.ts';
import { copyProject } from './lib/project-copy.ts';

/** The checker's version, pinned here: it is fetched by `npm exec` when the audit runs, never installed with the project. */
const VNU_PACKAGE = 'vnu-jar@26.9.27';

interface NuMessage {
  type: 'error' | 'info' | 'non-document-error';
  subType?: string;
  url?: string;
  lastLine?: number;
  message: string;
  extract?: string;
}

const { values } = parseArgs({ options: { url: { type: 'string' } } });

if (spawnSync('java', ['-version'], { stdio: 'ignore' }).status !== 0) {
  console.error('The Nu HTML Checker needs Java 17 or later on the PATH (e.g. apt-get install default-jre-headless).');
  process.exit(2);
}

/** The checker over the saved pages; its JSON report (`--exit-zero-always`: the report says what failed). */
function runNu(files: string[]): Promise<NuMessage[]> {
  const child = spawn(
    'npm',
    [
      'exec',
      '--yes',
      `--package=${VNU_PACKAGE}`,
      '--',
      'vnu',
      '--format',
      'json',
      '--stdout',
      '--exit-zero-always',
      ...files,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`vnu exited with ${code}:\n${output}`));
      resolve((JSON.parse(output) as { messages: NuMessage[] }).messages);
    });
  });
}

const kindOf = (message: NuMessage): 'error' | 'warning' | 'info' =>
  message.type === 'info' ? (message.subType === 'warning' ? 'warning' : 'info') : 'error';

async function ownServer(): Promise<{ server: RunningServer; cleanUp: () => Promise<void> }> {
  const copy = await copyProject('departures-board-audit-');
  const outDir = path.join(copy, 'dist');
  console.log('Building the site in a copy of the project…');
  await buildSite({ siteUrl: siteUrl(), projectDir: copy, outDir });
  const server = await startServer({ workerConfig: path.join(outDir, 'server/wrangler.json') });
  return {
    server,
    cleanUp: async () => {
      await server.stop();
      await rm(copy, { recursive: true, force: true });
    },
  };
}

const own = values.url === undefined ? await ownServer() : undefined;
const baseUrl = values.url?.replace(/\/+$/, '') ?? own!.server.baseUrl;
const saved = await mkdtemp(path.join(tmpdir(), 'departures-board-audit-pages-'));
let failed = false;
try {
  const pages = await auditedPages(baseUrl);
  // The checker refuses to fetch from a loopback address: it reads each page from a file named after its path.
  const files = new Map<string, string>();
  for (const [index, page] of pages.entries()) {
    const response = await fetch(`${baseUrl}${page}`);
    if (!/^text\/html/.test(response.headers.get('content-type') ?? ''))
      throw new Error(`${page} is not HTML (${response.status} ${response.headers.get('content-type')})`);
    const file = path.join(saved, `${String(index).padStart(2, '0')}-${page.replace(/[^A-Za-z0-9]+/g, '_')}.html`);
    await writeFile(file, await response.text());
    files.set(file, page);
  }
  const messages = await runNu([...files.keys()]);
  const byPage = new Map(pages.map((page) => [page, { error: 0, warning: 0, info: 0 }]));
  for (const message of messages) {
    const page = files.get(new URL(message.url ?? 'file:///').pathname) ?? message.url ?? '(no page)';
    const kind = kindOf(message);
    const counts = byPage.get(page) ?? { error: 0, warning: 0, info: 0 };
    counts[kind] += 1;
    byPage.set(page, counts);
    if (kind !== 'info')
      console.log(`${kind} ${page}: ${message.message}${message.extract ? `\n    ${message.extract.trim()}` : ''}`);
  }
  for (const [page, counts] of byPage) console.log(`${page}\t${counts.error} errors\t${counts.warning} warnings`);
  const total = (kind: 'error' | 'warning') => [...byPage.values()].reduce((sum, counts) => sum + counts[kind], 0);
  console.log(
    `Nu HTML Checker (${VNU_PACKAGE}): ${pages.length} pages, ${total('error')} errors, ${total('warning')} warnings`,
  );
  failed = total('error') + total('warning') > 0;
} finally {
  await rm(saved, { recursive: true, force: true });
  await own?.cleanUp();
}
process.exit(failed ? 1 : 0);
