// `npm run load`: the mixed load for longer (default 60 s, 64 connections) against the production build in
// workerd; prints the figures for docs/performance.md. Options: --seconds N --connections N
import { parseArgs } from 'node:util';
import { BUILT_WORKER_CONFIG, buildSite, freePort, startServer } from './lib/local-server.ts';
import { memoryLevelledOff, MIXED_REQUESTS, runMixedLoad } from './lib/mixed-load.ts';

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '60' }, connections: { type: 'string', default: '64' } },
});
const port = await freePort();
await buildSite({ siteUrl: `http://127.0.0.1:${port}` });
const server = await startServer({ port, workerConfig: BUILT_WORKER_CONFIG });
try {
  const result = await runMixedLoad(server, Number(values.seconds), Number(values.connections));
  console.log(
    `Mixed load over ${MIXED_REQUESTS.length} endpoints, ${result.seconds} s, ${result.connections} connections:`,
  );
  console.log(`| requests | req/s | p50 ms (worst window) | p99 ms (worst window) | errors | non-2xx |`);
  console.log(`| --- | --- | --- | --- | --- | --- |`);
  console.log(
    `| ${result.requests} | ${result.requestsPerSecond.toFixed(0)} | ${result.p50Ms} | ${result.p99Ms} | ${result.errors} | ${result.non2xx} |`,
  );
  const levelled = memoryLevelledOff(result);
  console.log(
    `\nServer memory (wrangler + workerd), MiB, before and every 10 s: ${result.memoryMiB.map((value) => value.toFixed(0)).join(' → ')}; levelled off: ${levelled ? 'yes' : 'NO'}`,
  );
  process.exitCode = result.errors === 0 && result.non2xx === 0 && levelled ? 0 : 1;
} finally {
  await server.stop();
}
