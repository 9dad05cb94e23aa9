/**
 * Setup of every served test file. `wrangler dev` serves the worker behind a local proxy of its own (its
 * "ProxyWorker"). When that proxy writes a request onto a kept-alive connection to the worker at the moment the
 * runtime closes it, the request fails inside the proxy, which answers `500` with "Network connection lost."
 * itself: the worker never sees the request. The proxy sends a GET or HEAD once more on its own, never a request
 * with a body (cloudflare/workers-sdk issues 15002 and 15317, pull request 15252). Seen here about once in eight
 * full runs, always on a POST to /mcp.
 *
 * That answer is the local runtime's, not the service's (the worker's own errors are JSON, and production has no
 * such proxy), so a request that met it is sent once more, and the retry is reported. Any other answer, every
 * 5xx of the worker's included, reaches the test as it came.
 */

const PROXY_DROPPED_CONNECTION = /Network connection lost/;
// The served files share their worker's modules (isolate: false) and this file runs before each: wrap once.
const WRAPPED = Symbol.for('departures-board.local-proxy-retry');
const plainFetch = (globalThis.fetch as typeof fetch & { [WRAPPED]?: typeof fetch })[WRAPPED] ?? globalThis.fetch;

const retryingFetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
  // A Request's body can be read once only: such a call is passed through as it is.
  if (input instanceof Request) return plainFetch(input, init);
  const response = await plainFetch(input, init);
  if (response.status !== 500 || !PROXY_DROPPED_CONNECTION.test(await response.clone().text())) return response;
  console.warn(
    `the local proxy dropped ${init?.method ?? 'GET'} ${String(input)} before the worker saw it; sent again`,
  );
  return plainFetch(input, init);
};
globalThis.fetch = Object.assign(retryingFetch, { [WRAPPED]: plainFetch });
