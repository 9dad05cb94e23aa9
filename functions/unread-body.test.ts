import { describe, expect, it } from 'vitest';
import { fixtureFiles } from '../scripts/lib/built-files.ts';
import { edgeApp } from '../scripts/lib/edge-app.ts';
import { makeEvent, NOW } from '../src/core/test-events.ts';

/**
 * Every answer of the edge leaves the request's body read to its end, also when it refuses the request unread
 * (a body over the limit, another media type, the rate limit, a method the route has not). A body left unread
 * is what made a JSON-RPC batch to /mcp answer 500 "Network connection lost." in loaded served runs: the local
 * runtime dropped the connection the refused body came on, and the next request on it (the batch) was lost
 * (docs/mcp.md, "A refused body is read to its end"; tests/mcp.test.ts shows it over HTTP).
 */

const files = fixtureFiles([makeEvent({ provider: 'provider_a', kind: 'reset' })], NOW);
const openApp = edgeApp(files);
const limitedApp = edgeApp(files, { rateLimiter: { limit: async () => ({ success: false }) } as unknown as RateLimit });

const BATCH = '[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"tools/list"}]';
const json = { 'Content-Type': 'application/json' };
const PUSH = '/api/push/subscriptions';

/** `text` as a body in chunks of 4 KiB, which records whether a reader asked for more after the last chunk. */
function watchedBody(text: string) {
  const bytes = new TextEncoder().encode(text);
  const watch = { readToEnd: false };
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (sent >= bytes.byteLength) {
          watch.readToEnd = true;
          controller.close();
          return;
        }
        controller.enqueue(bytes.subarray(sent, sent + 4096));
        sent += 4096;
      },
    },
    // Nothing is pulled before a reader asks.
    { highWaterMark: 0 },
  );
  return { stream, watch, length: bytes.byteLength };
}

async function send(app: typeof openApp, method: string, path: string, text: string, headers: Record<string, string>) {
  const { stream, watch, length } = watchedBody(text);
  // `duplex` is what a streamed request body needs in Node; the DOM typings do not know it yet.
  const init = { method, headers: { 'Content-Length': String(length), ...headers }, body: stream, duplex: 'half' };
  const response = (await app.request(path, init as RequestInit))!;
  return { response, watch };
}

describe('a request body the edge refuses is still read to its end', () => {
  it.each([
    ['POST /mcp over 64 KiB', openApp, 'POST', '/mcp', 'x'.repeat(70_000), json, 413],
    ['POST /mcp as text/plain', openApp, 'POST', '/mcp', BATCH, { 'Content-Type': 'text/plain' }, 415],
    ['POST /mcp over the rate limit', limitedApp, 'POST', '/mcp', BATCH, json, 429],
    ['POST /api/push/subscriptions over 4 KiB', openApp, 'POST', PUSH, 'x'.repeat(70_000), json, 400],
    ['POST /api/push/subscriptions as text/plain', openApp, 'POST', PUSH, '{}', {}, 415],
    ['PUT /api/status', openApp, 'PUT', '/api/status', 'x'.repeat(8_000), json, 405],
    // Over a megabyte: refused before a byte is parsed where no route reads it, in the route's decided form where
    // one does (a push write's 400, MCP's JSON-RPC 413), and read to its end (not cancelled) either way.
    ['POST /mcp of 3 MiB', openApp, 'POST', '/mcp', 'x'.repeat(3 * 1024 * 1024), json, 413],
    ['POST /api/push/subscriptions of 3 MiB', openApp, 'POST', PUSH, 'x'.repeat(3 * 1024 * 1024), json, 400],
    ['POST /api/status of 3 MiB', openApp, 'POST', '/api/status', 'x'.repeat(3 * 1024 * 1024), json, 413],
    ['POST / of 3 MiB', openApp, 'POST', '/', 'x'.repeat(3 * 1024 * 1024), json, 413],
  ])('%s', async (_, app, method, path, text, headers, status) => {
    const { response, watch } = await send(app, method, path, text, headers);
    expect(response.status).toBe(status);
    expect(watch.readToEnd).toBe(true);
  });

  it('a batch, which the handler reads itself, is answered from the body it read', async () => {
    const { response, watch } = await send(openApp, 'POST', '/mcp', BATCH, json);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { id: number }[]).map((message) => message.id)).toEqual([1, 2]);
    expect(watch.readToEnd).toBe(true);
  });
});
