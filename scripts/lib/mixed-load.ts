import autocannon from 'autocannon';
import type { RunningServer } from './local-server.ts';

/**
 * A sustained mix of the API, pages and MCP from a second process, with the server's memory read before and
 * after: the load test of `npm test` (short) and of `npm run load` (a minute or more).
 */

/** The MCP call the load and the benchmark send. */
export const MCP_GET_STATUS_BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'get_status', arguments: {} },
});

export const MIXED_REQUESTS: {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  headers?: Record<string, string>;
}[] = [
  { method: 'GET', path: '/api/status' },
  { method: 'GET', path: '/api/timeline' },
  { method: 'GET', path: '/api/timeline?provider=provider_a&limit=20' },
  { method: 'GET', path: '/api/timeline.csv?provider=provider_c' },
  { method: 'GET', path: '/feed.xml?provider=provider_b' },
  { method: 'GET', path: '/index.md' },
  { method: 'GET', path: '/api/ics?provider=provider_a&resetAt=2026-11-21T18:30:00%2B08:00' },
  { method: 'GET', path: '/' },
  { method: 'GET', path: '/provider_b' },
  { method: 'GET', path: '/badge/provider_c.svg' },
  // The limiter allows 60 a minute per IPv4 address or IPv6 /64: each MCP call comes from a /64 of its own (a header
  // only).
  { method: 'POST', path: '/mcp', body: MCP_GET_STATUS_BODY, headers: { 'content-type': 'application/json' } },
];

/** The `index`-th client address: each in a /64 of its own, from the documentation prefix 2001:db8::/32. */
const clientIpOf = (index: number) =>
  `2001:db8:${((index >>> 16) & 0xffff).toString(16)}:${(index & 0xffff).toString(16)}::1`;

export interface MixedLoadResult {
  seconds: number;
  connections: number;
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  /** The worst p99 of the windows. */
  p99Ms: number;
  errors: number;
  non2xx: number;
  /** The server's resident memory before the load and after each window, MiB. */
  memoryMiB: number[];
}

const WINDOW_SECONDS = 10;

/** The mix for `seconds`, in windows of 10 s, reading the server's memory after each. */
export async function runMixedLoad(
  server: RunningServer,
  seconds: number,
  connections: number,
): Promise<MixedLoadResult> {
  let counter = 0;
  const requests: autocannon.Request[] = MIXED_REQUESTS.map((request) =>
    request.method === 'POST'
      ? {
          ...request,
          setupRequest: (req: autocannon.Request) => ({
            ...req,
            // A /64 of its own each (the limiters count per IPv6 /64: src/core/http/client-key.ts).
            headers: { ...req.headers, 'cf-connecting-ip': clientIpOf(counter++) },
          }),
        }
      : request,
  );
  await autocannon({ url: server.baseUrl, requests, duration: 2, connections }); // every route warm
  const memoryMiB = [(await server.residentBytes()) / 2 ** 20];
  const windows: autocannon.Result[] = [];
  for (let elapsed = 0; elapsed < seconds; elapsed += WINDOW_SECONDS) {
    windows.push(
      await autocannon({
        url: server.baseUrl,
        requests,
        duration: Math.min(WINDOW_SECONDS, seconds - elapsed),
        connections,
      }),
    );
    memoryMiB.push((await server.residentBytes()) / 2 ** 20);
  }
  const total = windows.reduce((sum, window) => sum + window.requests.total, 0);
  return {
    seconds,
    connections,
    requests: total,
    requestsPerSecond: total / seconds,
    p50Ms: Math.max(...windows.map((window) => window.latency.p50)),
    p99Ms: Math.max(...windows.map((window) => window.latency.p99)),
    errors: windows.reduce((sum, window) => sum + window.errors + window.timeouts, 0),
    non2xx: windows.reduce((sum, window) => sum + window.non2xx, 0),
    memoryMiB,
  };
}

/**
 * Whether memory has levelled off: the last third of the windows added less than a tenth of what the whole
 * run added. (The local runtime's memory climbs for the first ~45 s whatever it serves, static files included,
 * then stays; a leak keeps climbing.)
 */
export function memoryLevelledOff({ memoryMiB }: MixedLoadResult): boolean {
  const first = memoryMiB[0]!;
  const last = memoryMiB.at(-1)!;
  const lastThirdStart = memoryMiB[Math.floor(((memoryMiB.length - 1) * 2) / 3)]!;
  return last - lastThirdStart <= Math.max(32, (last - first) * 0.1);
}
