import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildSite, serveBuild, stopServer, waitUntilServing } from '../../scripts/lib/local-server.ts';

/**
 * Global setup of the `served` tests: builds the site from the shipped events once and serves the
 * production build in workerd on a free port, exactly as `npm start` does; tests read `baseUrl`.
 */

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export default async function setup(project: TestProject) {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const state = await mkdtemp(path.join(tmpdir(), 'departures-board-state-'));
  await buildSite({ siteUrl: baseUrl });
  const server = serveBuild({ port, persistTo: state });
  let log = '';
  server.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  server.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  try {
    await waitUntilServing(baseUrl, server);
  } catch (error) {
    stopServer(server);
    throw new Error(`${(error as Error).message}\n${log}`);
  }
  project.provide('baseUrl', baseUrl);
  return async () => {
    stopServer(server);
    await rm(state, { recursive: true, force: true });
  };
}
