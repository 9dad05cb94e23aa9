import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '../scripts/lib/local-server.ts';

/**
 * `npm start` meeting a busy port. What it does when the port is free (it builds, prints its address once the
 * server answers, and leaves no process behind when the terminal closes) is tested where it serves a copy of
 * the project with real events: tests/real-data.test.ts.
 */

const START = 'scripts/start.ts';

describe('npm start', () => {
  // In the project itself: the port is checked before the build, which never starts (and would not write dist/).
  it('reports a busy PORT in one line before building, and exits 1', async () => {
    const port = await freePort();
    const outDir = await mkdtemp(path.join(tmpdir(), 'departures-board-start-'));
    const occupant: Server = createServer();
    await new Promise<void>((resolve) => occupant.listen(port, '127.0.0.1', resolve));
    try {
      const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [START, '--out-dir', outDir], {
          env: { ...process.env, PORT: String(port) },
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.on('exit', (code) => resolve({ code, stdout, stderr }));
      });
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(new RegExp(`^PORT ${port} is already in use on localhost`)),
      ]);
      // Nothing was built: the build would have written its log to stdout.
      expect(result.stdout).toBe('');
    } finally {
      occupant.close();
      await rm(outDir, { recursive: true, force: true });
    }
  });
});
