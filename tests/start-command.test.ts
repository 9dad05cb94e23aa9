import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../scripts/lib/local-server.ts';
import { ASTRO_TURN_TIMEOUT_MS, giveBackAstroTurn, takeAstroTurn } from './support/astro-turn.ts';

/** `npm start` as a person meets it: a busy port, the moment it says it is ready, closing the terminal. */

const START = 'scripts/start.ts';

/** Every process whose parent chain leads to `root` (read from /proc: pid, then ppid after the name). */
async function descendantsOf(root: number): Promise<number[]> {
  const parents = new Map<number, number>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[1] !== undefined) parents.set(Number(entry), Number(fields[1]));
  }
  const found: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const [pid, ppid] of parents) {
      if (ppid === parent && !found.includes(pid)) {
        found.push(pid);
        queue.push(pid);
      }
    }
  }
  return found;
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

// npm start builds the site: its turn among the served files that run Astro.
beforeAll(takeAstroTurn, ASTRO_TURN_TIMEOUT_MS);
afterAll(giveBackAstroTurn);

describe('npm start', () => {
  it('reports a busy PORT in one line before building, and exits 1', async () => {
    const port = await freePort();
    const occupant: Server = createServer();
    await new Promise<void>((resolve) => occupant.listen(port, '127.0.0.1', resolve));
    try {
      const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [START], { env: { ...process.env, PORT: String(port) } });
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
    }
  });

  it('prints its address once the server answers, and leaves no process behind when the terminal closes (SIGHUP)', async () => {
    const port = await freePort();
    const outDir = await mkdtemp(path.join(tmpdir(), 'departures-board-start-'));
    // Its own process group, as a terminal's foreground job: closing the terminal sends SIGHUP to the group.
    const start = spawn(process.execPath, [START, '--out-dir', outDir], {
      env: { ...process.env, PORT: String(port), NO_COLOR: '1' },
      detached: true,
    });
    let output = '';
    start.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<void>((resolve) => start.on('exit', () => resolve()));
    try {
      const address = await new Promise<string>((resolve, reject) => {
        start.on('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${output}`)));
        start.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          const announced = /is served at (http:\/\/\S+?)[.;]? /.exec(output)?.[1];
          if (announced) resolve(announced);
        });
      });
      expect(address).toBe(`http://localhost:${port}`);
      // Asked the moment the address is printed: it must already answer.
      const response = await fetch(`${address}/`);
      expect(response.status).toBe(200);

      const processes = await descendantsOf(start.pid!);
      const names = await Promise.all(processes.map((pid) => readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '')));
      expect(names.some((name) => name.trim() === 'workerd')).toBe(true);

      process.kill(-start.pid!, 'SIGHUP');
      await exited;
      // Give the server's processes time to go (a hang guard: the check below is what counts).
      for (let attempt = 0; attempt < 100 && processes.some(isAlive); attempt += 1)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(processes.filter(isAlive)).toEqual([]);
    } finally {
      for (const pid of [start.pid!, ...(await descendantsOf(start.pid!))])
        if (isAlive(pid)) process.kill(pid, 'SIGKILL');
      await rm(outDir, { recursive: true, force: true });
    }
  }, 300_000);
});
