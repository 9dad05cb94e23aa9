import { describe, expect, it } from 'vitest';
import { asksForBuiltFile, withBuiltFiles } from './built-files.ts';

/**
 * Outside `astro dev` (here: unbuilt code under Vitest, as in every in-process test, and any build), the built
 * files come from the ASSETS binding the reader was given, and no request is taken for the dev stand-in's.
 * `astro dev`'s side is tests/dev-server.test.ts: every page and route, and an edit shown without a restart.
 */
describe('the one way to the built files', () => {
  it('is the given ASSETS binding, the bindings left as they are', () => {
    const env = { ASSETS: { fetch: async () => new Response('a built file') } as unknown as Fetcher, OTHER: 1 };
    expect(withBuiltFiles(env)).toBe(env);
  });

  it('takes no request for the dev server’s stand-in, whatever its headers', () => {
    const request = new Request('https://board.example/api/timeline', { headers: { 'X-Built-File': '1' } });
    expect(asksForBuiltFile(request)).toBe(false);
  });
});
