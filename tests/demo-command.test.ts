import { spawn } from 'node:child_process';
import { describe, expect, inject, it } from 'vitest';
import { projectRoot } from '../scripts/lib/tools.ts';
import { scaled } from '../scripts/lib/load-scaled.ts';

/**
 * `npm run demo -- --once` end to end (docs/watch.md, "From a post to every channel"), on the run's shared build
 * (`--build`: the command serves a copy of it, so it builds nothing): it serves, subscribes each channel, walks the
 * post through poll, draft, review message, the review page and the confirm to the board and each channel, and
 * exits 0 having seen every one. What each step shows is tests/confirm-path.test.ts's to check; this test keeps the
 * command itself working.
 */

/**
 * Runs the demo once on a copy of the shared build, on a port the system gives as the server binds it (a port chosen
 * here first could be given to another server of the run before the demo binds it); resolves with its exit code and
 * output. A demo that outlives `limitMs` is stopped, so that its output still reaches the failure.
 */
function runDemo(limitMs: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['scripts/demo.ts', '--once', '--build', inject('builtDir'), '--port', '0'], {
      cwd: projectRoot,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: limitMs,
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) =>
      resolve({ code, output: signal === null ? output : `${output}\n(stopped by ${signal} after ${limitMs} ms)` }),
    );
  });
}

describe('npm run demo -- --once', () => {
  const limitMs = scaled(120_000);
  it(
    'walks one post to the board and every channel and exits 0',
    async () => {
      const { code, output } = await runDemo(limitMs);
      expect(code, output).toBe(0);
      for (const step of ['serve:', 'subscribe:', 'post:', 'poll:', 'review page:', 'confirm:'])
        expect(output, output).toContain(step);
      // The address the server was given, as the serve step prints it; the review link is re-addressed to it.
      const base = /^ {6}(http:\/\/127\.0\.0\.1:\d+)\/ \(state: /m.exec(output)?.[1];
      expect(base, output).toBeDefined();
      expect(base).not.toBe('http://127.0.0.1:0');
      expect(output).toContain(`${base}/review/`);
      for (const reached of ['the board (/)', 'Discord webhook (subscriber)', 'push service', 'WebSub callback'])
        expect(output).toMatch(new RegExp(`${reached.replace(/[()/]/g, '\\$&')} +\\d+\\.\\d\\d\\n`));
      expect(output).not.toContain('never');
    },
    limitMs + scaled(30_000),
  );
});
