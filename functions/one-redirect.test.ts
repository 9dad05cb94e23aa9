import { beforeEach, describe, expect, it } from 'vitest';
import { fixtureFiles } from '../scripts/lib/built-files.ts';
import { edgeApp } from '../scripts/lib/edge-app.ts';
import { ROUTES } from '../src/core/routes/table.ts';
import { makeEvent, NOW, resetsWithGaps } from '../src/core/test-events.ts';
import { forgetLoadedData } from '../src/server/data-source.ts';

/**
 * "One redirect at most for any typed URL" (issue 14), in-process: every route of the table and every page, in
 * every roundabout form a person or a client may type, followed by hand. The typed forms are written here from
 * the canonical path, not by the policy under test; each must reach the same final answer as the canonical
 * path itself, after one redirect at most. A path the worker hands over to Astro (a page) is a final answer.
 */

const EVENTS = [
  ...resetsWithGaps([7, 8, 6], 2).map((event) => ({ ...event, provider: 'provider_a' as const })),
  makeEvent({ provider: 'provider_b', kind: 'boost', announcedAt: '2026-06-10T08:00:00.000Z' }),
];
const ORIGIN = 'http://localhost:4321';
const EDGE = edgeApp(fixtureFiles(EVENTS, NOW), { origin: ORIGIN });
const LATER = new Date(NOW.getTime() + 3_600_000);

const concrete = (template: string) =>
  template.replace('{provider}', 'provider_a').replace('{year}', '2026').replace('{id}', EVENTS[0]!.id);

const PAGES = ['/', '/about', '/api', '/tracker', '/provider_a', '/unavailable'].flatMap((page) => [
  page,
  page === '/' ? '/zh' : `/zh${page}`,
]);
const CANONICAL_PATHS = [...new Set([...ROUTES.map((route) => concrete(route.path)), ...PAGES])];

/** The forms of `canonical` that name the same thing (RFC 3986 6.2.2, and what a person types). */
function typedForms(canonical: string): string[] {
  const encode = (char: string) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`;
  const firstLetter = canonical.search(/[a-z]/);
  const encodedLetter =
    firstLetter < 0
      ? undefined
      : `${canonical.slice(0, firstLetter)}${encode(canonical[firstLetter]!)}${canonical.slice(firstLetter + 1)}`;
  const forms = [
    `${canonical}/`,
    `${canonical}//`,
    `/${canonical}`,
    canonical.replace(/\/([^/]*)$/, '//$1'),
    canonical.replaceAll('.', '%2E'),
    canonical.replaceAll('.', '%2e'),
    ...(encodedLetter === undefined ? [] : [encodedLetter, `${encodedLetter}/`, `/${encodedLetter}/`]),
  ];
  // A page's built file, as the asset store names it.
  if (PAGES.includes(canonical))
    forms.push(canonical === '/' ? '/index.html' : `${canonical}.html`, `${canonical}/index.html`);
  return [...new Set(forms)].filter((form) => form !== canonical);
}

interface Outcome {
  status: number | 'page';
  path: string;
  redirects: number;
}

/** Follows redirects by hand from `path` (with `search`), as a browser would, counting them. */
async function follow(path: string, search = ''): Promise<Outcome> {
  // Joined as text: `new URL('//zh', origin)` would read `zh` as a host.
  let url = new URL(`${ORIGIN}${path}${search}`);
  for (let redirects = 0; redirects <= 5; redirects += 1) {
    const response = await EDGE.request(url.href, undefined, LATER);
    if (response === undefined) return { status: 'page', path: `${url.pathname}${url.search}`, redirects };
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || location === null)
      return { status: response.status, path: `${url.pathname}${url.search}`, redirects };
    url = new URL(location, url);
  }
  throw new Error(`${path}${search}: a redirect loop`);
}

beforeEach(() => forgetLoadedData());

describe('one redirect at most for any typed URL', () => {
  it('the generator covers every route of the table and every page, English and Chinese', () => {
    expect(CANONICAL_PATHS).toEqual(expect.arrayContaining(['/api/feed', '/zh', '/zh/about', '/zh/index.md']));
    expect(CANONICAL_PATHS.length).toBeGreaterThanOrEqual(ROUTES.length);
  });

  it.each(CANONICAL_PATHS)(
    'every typed form of %s lands where the path itself does, after one redirect at most',
    async (path) => {
      for (const search of ['', '?provider=provider_a']) {
        const landing = await follow(path, search);
        expect(landing.redirects, `${path}${search} itself`).toBeLessThanOrEqual(1);
        for (const form of typedForms(path)) {
          const typed = await follow(form, search);
          expect(typed.redirects, `${form}${search}`).toBeLessThanOrEqual(1);
          expect({ status: typed.status, path: typed.path }, `${form}${search}`).toEqual({
            status: landing.status,
            path: landing.path,
          });
        }
      }
    },
  );

  it('an encoded slash is no path at all: 404 at once, no redirect', async () => {
    for (const path of CANONICAL_PATHS.filter((candidate) => candidate.lastIndexOf('/') > 0)) {
      const form = path.replace(/\/([^/]*)$/, '%2F$1');
      expect(await follow(form), form).toEqual({ status: 404, path: form, redirects: 0 });
    }
  });
});
