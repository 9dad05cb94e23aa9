import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, inject, it } from 'vitest';
import { measureWorkerBundle } from '../scripts/lib/bundle-size.ts';

/** Size budgets, deterministic for a given build (times are the benchmark's business, not the tests'). */

const baseUrl = inject('baseUrl');
const KIB = 1024;

const gzippedSize = async (url: string) => gzipSync(Buffer.from(await (await fetch(url)).arrayBuffer())).length;

describe('budgets', () => {
  it('the worker bundle is under 350 KiB gzip', async () => {
    const outdir = await mkdtemp(path.join(tmpdir(), 'departures-board-bundle-'));
    // The run's own build (never the checkout's dist/, which a fresh clone does not have).
    const { gzipKiB } = measureWorkerBundle(outdir, path.join(inject('builtDir'), 'server/wrangler.json'));
    expect(gzipKiB).toBeLessThan(350);
  });

  it('the home page transfers under 60 KB in all (HTML, CSS, JavaScript, icon), compressed', async () => {
    const html = await (await fetch(`${baseUrl}/`)).text();
    const assets = [...html.matchAll(/(?:href|src)="(\/[^"]+\.(?:css|js|svg))"/g)].map(([, asset]) => asset!);
    expect(assets.some((asset) => asset.endsWith('.css'))).toBe(true);
    let total = gzipSync(html).length;
    for (const asset of new Set(assets)) total += await gzippedSize(`${baseUrl}${asset}`);
    expect(total).toBeLessThan(60 * KIB);
  });
});
