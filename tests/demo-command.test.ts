import { spawn } from 'node:child_process';
import { describe, expect, inject, it } from 'vitest';
import { freePort } from '../scripts/lib/local-server.ts';
import { projectRoot } from '../scripts/lib/tools.ts';
import { scaled } from '../scripts/lib/load-scaled.ts';

/**
 * `npm run demo -- --once` end to end (docs/watch.md, "From a post to every channel"), on the run's shared build
 * (`--build`: the command serves a copy of it, so it builds nothing): it serves, subscribes each channel, walks the
 * post through poll, draft, review message, the review page and the confirm to the board and each channel, and
 * exits 0 having seen every one. What each step shows is tests/confirm-path.test.ts's to check; this test keeps the
 * command itself working.
 */

/** Runs the demo once on a copy of the shared build; resolves with its exit code and output. */
function runDemo(port: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['scripts/demo.ts', '--once', '--build', inject('builtDir'), '--port', String(port)],
      { cwd: projectRoot, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('npm run demo -- --once', () => {
  it(
    'walks one post to the board and every channel and exits 0',
    async () => {
      const port = await freePort();
      const { code, output } = await runDemo(port);
      expect(code, output).toBe(0);
      for (const step of ['serve:', 'subscribe:', 'post:', 'poll:', 'review page:', 'confirm:'])
        expect(output, output).toContain(step);
      expect(output).toContain(`http://127.0.0.1:${port}/review/`);
      for (const reached of ['the board (/)', 'Discord webhook (subscriber)', 'push service', 'WebSub callback'])
        expect(output).toMatch(new RegExp(`${reached.replace(/[()/]/g, '\\$&')} +\\d+\\.\\d\\d\\n`));
      expect(output).not.toContain('never');
    },
    scaled(120_000),
  );
});
