import path from 'node:path';
import { BUILT_WORKER_CONFIG } from './local-server.ts';
import { runWrangler } from './tools.ts';

/**
 * What `wrangler deploy` would upload for a build (the checkout's last one by default), as wrangler itself measures
 * it; run in that build's project folder, so that wrangler's own files land there. Asynchronous: wrangler takes
 * seconds (tens on a busy machine), and a caller whose event loop stood still that long would find its kept-alive
 * connections closed by their servers meanwhile (a test's next `fetch` failed "other side closed").
 */
export async function measureWorkerBundle(
  outdir: string,
  workerConfig: string = BUILT_WORKER_CONFIG,
): Promise<{ rawKiB: number; gzipKiB: number }> {
  const output = await runWrangler(
    ['deploy', '--dry-run', '--outdir', outdir, '--config', workerConfig],
    path.dirname(path.dirname(path.dirname(workerConfig))),
  );
  const match = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(output);
  if (match === null) throw new Error(`wrangler did not report the bundle size:\n${output}`);
  return { rawKiB: Number(match[1]), gzipKiB: Number(match[2]) };
}
