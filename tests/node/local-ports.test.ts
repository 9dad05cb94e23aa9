import { readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { scaled } from '../../scripts/lib/load-scaled.ts';
import { freePort, reservePort, startServer } from '../../scripts/lib/local-server.ts';
import { tempFolder } from '../support/temp-folders.ts';

/**
 * The ports the tests' servers are given (scripts/lib/local-server.ts). A port chosen before a server binds it must
 * not be one the system could hand to another server or connection of the run meanwhile, and a port that was taken
 * anyway must fail the start at once: wrangler's dev server, given a taken port, never readies and never stops.
 */

/** Listens on `port` at 127.0.0.1; resolves with the server, or null when the port is taken. */
function listenOn(port: number): Promise<Server | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(null));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => resolve(server));
  });
}
const close = (server: Server) => new Promise<void>((done) => server.close(() => done()));

describe('a port chosen before its server binds it', () => {
  it('lies below the range the system gives out by itself, and can be bound', async () => {
    // Linux's own file, read here rather than through the code under test.
    const [low] = (await readFile('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')).trim().split(/\s+/).map(Number);
    for (let index = 0; index < 20; index += 1) {
      const port = await freePort();
      expect(port).toBeLessThan(low!);
      expect(port).toBeGreaterThanOrEqual(1024);
      const server = await listenOn(port);
      expect(server, `port ${port}`).not.toBeNull();
      await close(server!);
    }
  });

  it('is held by reservePort until it is released', async () => {
    const { port, release } = await reservePort();
    expect(await listenOn(port)).toBeNull();
    await release();
    const server = await listenOn(port);
    expect(server).not.toBeNull();
    await close(server!);
  });

  it(
    'taken by the time the server starts, fails the start at once, naming the port',
    async () => {
      const folder = tempFolder('local-ports');
      await writeFile(path.join(folder, 'worker.js'), 'export default { fetch: () => new Response("ok") };\n');
      const workerConfig = path.join(folder, 'wrangler.json');
      await writeFile(
        workerConfig,
        JSON.stringify({ name: 'ports', main: 'worker.js', compatibility_date: '2025-01-01' }),
      );
      // Another server of the run takes the port after it was chosen.
      const port = await freePort();
      const taken = await listenOn(port);
      expect(taken).not.toBeNull();
      try {
        await expect(startServer({ workerConfig, port })).rejects.toThrow(`port ${port} on 127.0.0.1 is in use`);
      } finally {
        await close(taken!);
      }
    },
    scaled(60_000),
  );
});
