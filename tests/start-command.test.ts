import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '../scripts/lib/local-server.ts';
import { copyProject } from '../scripts/lib/project-copy.ts';

/**
 * `npm start` meeting a busy port, and a build that fails. What it does when all goes well (its screen of at most
 * 25 lines: the phases, the address once the server answers, each setting; no stack trace; and no process left
 * behind when the terminal closes) is tested where it builds and serves a copy of the project with real events:
 * tests/real-data.test.ts, the one full `npm start` of the tests (a second would be a second build).
 */

const START = 'scripts/start.ts';

function run(args: string[], options: { cwd?: string; env: NodeJS.ProcessEnv }) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, args, options);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('npm start', () => {
  // In the project itself: the port is checked before the build, which never starts (and would not write dist/).
  it('reports a busy PORT in one line before building, and exits 1', async () => {
    const port = await freePort();
    const outDir = await mkdtemp(path.join(tmpdir(), 'departures-board-start-'));
    const occupant: Server = createServer();
    await new Promise<void>((resolve) => occupant.listen(port, '127.0.0.1', resolve));
    try {
      const result = await run([START, '--out-dir', outDir], { env: { ...process.env, PORT: String(port) } });
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(new RegExp(`^PORT ${port} is already in use on localhost`)),
      ]);
      // Nothing was built: the build would have printed its phase line.
      expect(result.stdout).toBe('');
    } finally {
      occupant.close();
      await rm(outDir, { recursive: true, force: true });
    }
  });

  // In a copy of the project with an invalid event file: the build stops in seconds, at the validation.
  it('says which phase failed and prints the end of its log, which names the problem', async () => {
    const copy = await copyProject('departures-board-start-fails-');
    try {
      // The checkout may hold no events at all (a deployment that removed the sample set): the folder is made here.
      await mkdir(path.join(copy, 'content/events/provider_a'), { recursive: true });
      await writeFile(
        path.join(copy, 'content/events/provider_a/broken.json'),
        `${JSON.stringify({ id: 'broken', provider: 'provider_a' })}\n`,
      );
      const port = await freePort();
      const result = await run([START], { cwd: copy, env: { ...process.env, PORT: String(port) } });
      expect(result.code).toBe(1);
      const logFile = path.join(tmpdir(), `departures-board-start-${port}.log`);
      expect(result.stdout.trim().split('\n')).toEqual([
        `Departures Board: npm start (the tools' whole output: ${logFile}; npm start -- --verbose shows it here)`,
        `  port ${port} on localhost: free`,
        `  building the site for http://localhost:${port}… failed`,
      ]);
      expect(result.stderr).toContain(`(the whole log: ${logFile})`);
      expect(result.stderr).toMatch(/content\/events\/provider_a\/broken\.json → kind: /);
      expect(result.stderr.trim().split('\n').at(-1)).toBe('npm start stopped: astro build failed (1)');
      expect(await readFile(logFile, 'utf8')).toContain('broken.json → kind: ');
      await rm(logFile, { force: true });
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  });
});
