import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { BUILT_WORKER_CONFIG } from './local-server.ts';

const WRANGLER = path.resolve(import.meta.dirname, '../../node_modules/wrangler/bin/wrangler.js');

/**
 * What `wrangler deploy` would upload for a build (the checkout's last one by default), as wrangler itself measures
 * it; run in that build's project folder, so that wrangler's own files land there.
 */
export function measureWorkerBundle(
  outdir: string,
  workerConfig: string = BUILT_WORKER_CONFIG,
): { rawKiB: number; gzipKiB: number } {
  const run = spawnSync(
    process.execPath,
    [WRANGLER, 'deploy', '--dry-run', '--outdir', outdir, '--config', workerConfig],
    {
      cwd: path.dirname(path.dirname(path.dirname(workerConfig))),
      encoding: 'utf8',
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1' },
    },
  );
  const match = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(run.stdout + run.stderr);
  if (match === null) throw new Error(`wrangler did not report the bundle size:\n${run.stdout}\n${run.stderr}`);
  return { rawKiB: Number(match[1]), gzipKiB: Number(match[2]) };
}
