import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, inject, it } from 'vitest';
import { measureWorkerBundle } from '../scripts/lib/bundle-size.ts';
import { LANGUAGES } from '../src/core/languages.ts';
import { tempFolder } from './support/temp-folders.ts';

/** Size budgets, deterministic for a given build (times are the benchmark's business, not the tests'). */

const baseUrl = inject('baseUrl');
const KIB = 1024;
/**
 * The worker's budget, code and words apart: 350 KiB gzip for the code with the words of the first two languages
 * (English and Chinese), plus an allowance for the words of each language beyond them. Measured 2026-11-28
 * (wrangler's gzip, 338.3 KiB with two languages): each of the six that followed, added alone, cost ja 10.4,
 * ko 9.5, es 8.7, de 9.0, fr 9.4, pt-BR 8.4 KiB; the six together 60.4 KiB (398.7), 10.1 each. The allowance is
 * 12 KiB a language, so that a language's words have room, and code cannot grow into much of the words' room.
 */
const CODE_AND_TWO_LANGUAGES_KIB = 350;
const WORDS_KIB_PER_LANGUAGE = 12;
const WORKER_BUDGET_KIB = CODE_AND_TWO_LANGUAGES_KIB + WORDS_KIB_PER_LANGUAGE * Math.max(0, LANGUAGES.length - 2);

const gzippedSize = async (url: string) => gzipSync(Buffer.from(await (await fetch(url)).arrayBuffer())).length;

describe('budgets', () => {
  it(`the worker bundle is under ${CODE_AND_TWO_LANGUAGES_KIB} KiB gzip, plus ${WORDS_KIB_PER_LANGUAGE} KiB per language beyond two (${WORKER_BUDGET_KIB} KiB)`, async () => {
    const outdir = tempFolder('bundle');
    // The run's own build (never the checkout's dist/, which a fresh clone does not have).
    const { gzipKiB } = await measureWorkerBundle(outdir, path.join(inject('builtDir'), 'server/wrangler.json'));
    expect(gzipKiB).toBeLessThan(WORKER_BUDGET_KIB);
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
