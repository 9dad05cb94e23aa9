import { describe, expect, it } from 'vitest';
import { judgePath } from './canonical-path.ts';

describe('judgePath', () => {
  it.each(['/', '/api/status', '/api/timeline.csv', '/zh', '/badge/provider_a.svg', '/%E4%B8%AD'])(
    '%s is canonical',
    (path) => expect(judgePath(path)).toEqual({ kind: 'canonical' }),
  );

  it.each([
    ['/api//timeline', '/api/timeline'],
    ['//api/status', '/api/status'],
    ['/api/status/', '/api/status'],
    ['/zh/', '/zh'],
    ['/%61pi/status', '/api/status'],
    ['/api/timeline%2Ecsv', '/api/timeline.csv'],
    ['/api/timeline%2ecsv', '/api/timeline.csv'],
    ['/api/status/provider%5Fa', '/api/status/provider_a'],
    ['/api///status//', '/api/status'],
    ['//', '/'],
    ['/about.html', '/about'],
    ['/about.html/', '/about'],
    ['/index.html', '/'],
    ['/zh/index.html', '/zh'],
    ['/zh.html', '/zh'],
  ])('%s is redirected to %s', (path, canonical) =>
    expect(judgePath(path)).toEqual({ kind: 'redirect', pathname: canonical }),
  );

  it.each(['/api%2Fstatus', '/api/status%2f', '/api%5Cstatus', '/api/%00', '/api/%2E%2E/status', '/api/.%2E'])(
    '%s is not a path',
    (path) => expect(judgePath(path)).toEqual({ kind: 'notFound' }),
  );

  it('a redirect lands on a canonical path (one redirect, never a chain)', () => {
    for (const path of ['/api//timeline/', '/%61%70%69//status/', '/zh//', '/zh/index.html/', '//about%2Ehtml']) {
      const verdict = judgePath(path);
      expect(verdict.kind).toBe('redirect');
      if (verdict.kind === 'redirect') expect(judgePath(verdict.pathname)).toEqual({ kind: 'canonical' });
    }
  });
});
