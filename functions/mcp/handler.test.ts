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
