import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { scaled } from '../scripts/lib/load-scaled.ts';
import { projectRoot } from '../scripts/lib/tools.ts';
import { LANGUAGES } from '../src/core/languages.ts';
import { PROVIDERS } from '../src/core/vocabulary.ts';
import type { PageRenders, PageRequest, RenderMode } from './support/page-renders.ts';

/**
 * The board, the provider pages and the tracker have two paths (docs/performance.md, "Pages from templates"): the
 * worker fills the build's template of the page, or Astro renders it. Both must be the same page. The run's own
 * build answers each page in both ways, each in a fresh copy of the built worker of its own process, at one fixed
 * clock, at the build's time and at clocks moved days and weeks after it (what the template holds must not depend
 * on the clock), and every answer is compared whole: status, headers, body.
 */

const execFileAsync = promisify(execFile);
const DAY_MS = 86_400_000;

const english = (page: string) => (page === '' ? '/' : `/${page}`);
const PAGES = ['', ...PROVIDERS, 'tracker'];
const REQUESTS: PageRequest[] = [
  ...LANGUAGES.flatMap(({ prefix }) =>
    PAGES.map((page) => ({ path: prefix === '' ? english(page) : page === '' ? `/${prefix}` : `/${prefix}/${page}` })),
  ),
  // The board's suggestion of the reader's language: only English's board makes one.
  ...LANGUAGES.filter(({ prefix }) => prefix !== '').map(({ tag }) => ({
    path: '/',
    acceptLanguage: `${tag},en;q=0.5`,
  })),
  { path: '/zh', acceptLanguage: 'ko' },
];

async function renders(now: number, mode: RenderMode, requests: PageRequest[] = REQUESTS): Promise<PageRenders> {
  const script = path.join(projectRoot, 'tests/support/page-renders.ts');
  const { stdout } = await execFileAsync(
    process.execPath,
    [script, inject('builtDir'), String(now), mode, JSON.stringify(requests)],
    { maxBuffer: 256 * 1024 * 1024, timeout: scaled(60_000) },
  );
  return JSON.parse(stdout) as PageRenders;
}

describe('pages from templates', () => {
  const builtAt = Date.now();
  it.each([
    ['at the build time', 0],
    ['3 days after the build', 3 * DAY_MS],
    ['40 days after the build', 40 * DAY_MS],
  ])('are the same bytes as Astro renders, %s', async (_, offset) => {
    const now = builtAt + offset;
    const [fromTemplates, byAstro] = await Promise.all([renders(now, 'templates'), renders(now, 'astro')]);
    // The templates answered alone: none of Astro's page modules was loaded, and nothing went wrong.
    expect(fromTemplates.astroModulesLoaded).toEqual([]);
    expect(fromTemplates.logged).toEqual([]);
    // Astro rendered its answers itself.
    expect(byAstro.astroModulesLoaded.length).toBeGreaterThan(0);
    REQUESTS.forEach((request, index) => {
      const template = fromTemplates.answers[index]!;
      const astro = byAstro.answers[index]!;
      expect({ request, status: template.status }).toEqual({ request, status: 200 });
      expect({ request, headers: template.headers }).toEqual({ request, headers: astro.headers });
      expect({ request, same: template.body === astro.body }).toEqual({ request, same: true });
      // A filled template keeps no marker.
      expect(template.body).not.toContain('<!--slot:');
    });
  });

  it("are left to Astro for the tracker's form answer and any other page", async () => {
    const others: PageRequest[] = [
      { path: '/tracker?provider=provider_a&tz=Europe%2FBerlin&reset=09%3A00' },
      { path: '/nowhere' },
    ];
    const answered = await renders(builtAt, 'templates', others);
    expect(answered.astroModulesLoaded.length).toBeGreaterThan(0);
    expect(answered.answers.map((answer) => answer.status)).toEqual([200, 404]);
    expect(answered.answers[0]!.body).toContain('Europe/Berlin');
  });
});
