// `npm start`: builds the site for `{base_url}` and serves the production build in workerd on PORT.
// `--out-dir <folder>` builds into and serves from another folder than dist/ (the tests use it).
import { parseArgs } from 'node:util';
import path from 'node:path';
import { servePort, siteUrl } from '../src/node/site-url.ts';
import { buildSite, portIsFree, serveBuild, stopServer, waitUntilServing } from './lib/local-server.ts';

const { values } = parseArgs({ options: { 'out-dir': { type: 'string' } } });
const outDir = values['out-dir'] === undefined ? undefined : path.resolve(values['out-dir']);
const port = servePort();
const host = process.env.HOST ?? 'localhost';

// Before the build (a minute of work): a port already taken would only fail at the very end.
if (!(await portIsFree(port, host))) {
  console.error(
    `PORT ${port} is already in use on ${host}: stop what is listening there, or choose another, e.g. PORT=${port + 1} npm start`,
  );
  process.exit(1);
}

await buildSite({ siteUrl: siteUrl(), stdio: 'inherit', ...(outDir ? { outDir } : {}) });
// The review channel of the watcher and the review page's signing key (docs/watch.md), when the environment names
// them: through the secrets file.
const secrets = Object.fromEntries(
  (['REVIEW_WEBHOOK_URL', 'REVIEW_SIGNING_KEY'] as const).flatMap((name) => {
    const value = process.env[name];
    return value ? [[name, value]] : [];
  }),
);
const server = await serveBuild({
  port,
  host,
  stdio: 'inherit',
  ...(Object.keys(secrets).length > 0 ? { secrets } : {}),
  ...(outDir ? { workerConfig: path.join(outDir, 'server/wrangler.json') } : {}),
});

// The server runs in a process group of its own (so that it can be stopped whole, workerd included), which
// also means the terminal's signals do not reach it: Ctrl-C (SIGINT), SIGTERM and closing the terminal
// (SIGHUP) are passed on here, and this process leaves when the server has.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => stopServer(server, 'SIGTERM'));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));

const local = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
try {
  await waitUntilServing(`${local}/favicon.svg`, server, 120_000);
} catch (error) {
  console.error(`The server did not start: ${(error as Error).message}`);
  stopServer(server, 'SIGTERM');
  process.exit(1);
}
const links = siteUrl() === local ? '' : `; its links point to ${siteUrl()} (SITE_URL)`;
console.log(`\nDepartures Board is served at ${local}${links}. Ctrl+C stops it.\n`);
