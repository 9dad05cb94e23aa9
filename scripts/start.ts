// `npm start`: builds the site for `{base_url}` and serves the production build in workerd on PORT.
import { servePort, siteUrl } from '../src/node/site-url.ts';
import { buildSite, serveBuild, stopServer } from './lib/local-server.ts';

const port = servePort();
await buildSite({ siteUrl: siteUrl(), stdio: 'inherit' });
const server = serveBuild({ port, host: process.env.HOST ?? 'localhost', stdio: 'inherit' });
console.log(`\nDepartures Board: ${siteUrl()} (served locally by workerd on port ${port}; Ctrl+C stops it)\n`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => stopServer(server, signal));
server.on('exit', (code) => process.exit(code ?? 0));
