import { describe, expect, it, vi } from 'vitest';
import { createContext } from '../../src/server/context.ts';
import { memoryKv } from '../../scripts/lib/built-files.ts';
import { handleMcp } from './handler.ts';

/** The rate limiter failing must not take MCP down: the request goes through, and the failure is logged. */
describe('handleMcp when the rate limiter fails', () => {
  it('answers (fail open) and logs the failure', async () => {
    const failingLimiter = { limit: async () => Promise.reject(new Error('limiter unreachable')) };
    const request = new Request('https://board.example/mcp', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'CF-Connecting-IP': '2001:db8::1' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping' }),
    });
    const unusedAssets = { fetch: () => Promise.reject(new Error('unused')) } as unknown as Fetcher;
    const context = createContext(request, {
      ASSETS: unusedAssets,
      MCP_RATE_LIMITER: failingLimiter as unknown as RateLimit,
      SOURCE_HEALTH: memoryKv(),
    });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const response = await handleMcp(context);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ jsonrpc: '2.0', id: 3, result: {} });
    expect(logged).toHaveBeenCalledWith(expect.stringMatching(/rate limiter failed/), expect.any(Error));
    logged.mockRestore();
  });
});

/** A limiter with `budget` calls left in its window, counting every call it is asked (as the binding does). */
function countingLimiter(budget: number) {
  const limiter = {
    calls: 0,
    limit: async () => {
      limiter.calls += 1;
      return { success: limiter.calls <= budget };
    },
  };
  return limiter;
}

const unusedAssets = { fetch: () => Promise.reject(new Error('unused')) } as unknown as Fetcher;
const pings = (count: number) =>
  Array.from({ length: count }, (_, index) => ({ jsonrpc: '2.0', id: index + 1, method: 'ping' }));

async function postBatch(
  body: unknown,
  limiter: ReturnType<typeof countingLimiter>,
  headers: Record<string, string> = {},
  now = new Date('2026-03-02T10:20:15.200Z'),
) {
  const request = new Request('https://board.example/mcp', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'CF-Connecting-IP': '2001:db8::7', ...headers },
    body: JSON.stringify(body),
  });
  const env = { ASSETS: unusedAssets, MCP_RATE_LIMITER: limiter as unknown as RateLimit, SOURCE_HEALTH: memoryKv() };
  return handleMcp(createContext(request, env, now));
}

describe('handleMcp and JSON-RPC batches (decisions.md: each message counts, at most 20)', () => {
  it('counts each message of a batch against the limit', async () => {
    const limiter = countingLimiter(60);
    const response = await postBatch(pings(3), limiter);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: 2, result: {} },
      { jsonrpc: '2.0', id: 3, result: {} },
    ]);
    expect(limiter.calls).toBe(3);
  });

  it('answers 429 when the batch needs more than the minute has left, with the seconds left in the window', async () => {
    const limiter = countingLimiter(2);
    const response = await postBatch(pings(3), limiter);
    expect(response.status).toBe(429);
    // 10:20:15.200: the window of 60 s that began at 10:20:00 ends in 44.8 s.
    expect(response.headers.get('retry-after')).toBe('45');
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
  });

  it('answers a batch of 20 messages', async () => {
    const limiter = countingLimiter(60);
    const response = await postBatch(pings(20), limiter);
    expect(response.status).toBe(200);
    expect(((await response.json()) as unknown[]).length).toBe(20);
    expect(limiter.calls).toBe(20);
  });

  it.each([
    ['no protocol header', {}],
    ['protocol 2025-03-26', { 'MCP-Protocol-Version': '2025-03-26' }],
  ])('refuses a batch of 21 messages with %s: 400, -32600, counted once', async (_, headers) => {
    const limiter = countingLimiter(60);
    const response = await postBatch(pings(21), limiter, headers);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Invalid Request: a batch of 21 messages; at most 20 per request' },
    });
    expect(limiter.calls).toBe(1);
  });

  it('refuses a batch of 100 tool calls before calling any tool', async () => {
    const calls = Array.from({ length: 100 }, (_, index) => ({
      jsonrpc: '2.0',
      id: index,
      method: 'tools/call',
      params: { name: 'get_timeline', arguments: { limit: 100 } },
    }));
    const response = await postBatch(calls, countingLimiter(60));
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('"code":-32600');
  });

  it('answers and counts a batch under protocol 2025-06-18 alike (decisions.md limits batches by length only)', async () => {
    const limiter = countingLimiter(60);
    const response = await postBatch(pings(2), limiter, { 'MCP-Protocol-Version': '2025-06-18' });
    expect(response.status).toBe(200);
    expect(((await response.json()) as unknown[]).length).toBe(2);
    expect(limiter.calls).toBe(2);
  });
});
