import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { Provider } from '../enums.ts';
import { parseRouteInput } from './input.ts';
import type { RouteInput, RouteSpec } from './route.ts';
import { type EdgeRouteOf, routeById } from './table.ts';

const search = (query: string) => new URLSearchParams(query);

describe('parseRouteInput: the path and query of a request, by its entry’s schemas', () => {
  it('hands over the schemas’ output: defaults filled, digits made a number', () => {
    expect(parseRouteInput(routeById('getTimeline'), {}, search('limit=3&utm_source=chat'))).toEqual({
      ok: true,
      input: { params: {}, query: { provider: 'all', limit: 3, format: 'json' } },
    });
    expect(parseRouteInput(routeById('getProviderStatus'), { provider: 'provider_b' }, search(''))).toEqual({
      ok: true,
      input: { params: { provider: 'provider_b' }, query: {} },
    });
  });

  it('refuses a path parameter its schema refuses, whatever the query', () => {
    for (const [id, params] of [
      ['getProviderStatus', { provider: 'provider_z' }],
      ['getBadgeSvg', { provider: '' }],
      ['getEvent', { id: '../board' }],
    ] as const)
      expect(parseRouteInput(routeById(id), params, search('limit=0')), id).toEqual({ ok: false, refused: 'path' });
  });

  it('refuses a query with every issue at once, a repeated parameter among them', () => {
    const result = parseRouteInput(routeById('getTimeline'), {}, search('limit=0&format=xml&provider=a&provider=b'));
    expect(result.ok).toBe(false);
    expect(result).toMatchObject({ refused: 'query' });
    const paths = 'issues' in result ? result.issues.map((issue) => issue.path.join('.')).sort() : [];
    expect(paths).toEqual(['format', 'limit', 'provider']);
  });

  it('takes a route without a query or path parameters as it is, ignoring any query', () => {
    expect(parseRouteInput(routeById('getStatus'), {}, search('provider=nobody'))).toEqual({
      ok: true,
      input: { params: {}, query: {} },
    });
  });

  it('follows a new entry’s own schemas, with nothing else written', () => {
    const added = {
      id: 'getExample',
      path: '/api/example/{year}',
      methods: ['GET'],
      tag: 'data',
      summary: 'An example',
      pathParams: { year: z.coerce.number().int().min(2000) },
      query: { schema: z.object({ big: z.enum(['yes', 'no']).default('no') }) },
      ok: { description: 'an example', content: { json: z.object({}) } },
      cache: 'api',
      served: 'edge',
      conditional: false,
      preflight: false,
      needsData: false,
    } as const satisfies RouteSpec;
    const parsed = parseRouteInput(added, { year: '2031' }, search(''));
    expect(parsed).toEqual({ ok: true, input: { params: { year: 2031 }, query: { big: 'no' } } });
    expect(parseRouteInput(added, { year: '1999' }, search('')).ok).toBe(false);
    if (parsed.ok) expectTypeOf(parsed.input).toEqualTypeOf<RouteInput<typeof added>>();
    expectTypeOf<RouteInput<typeof added>['params']>().toEqualTypeOf<{ readonly year: number }>();
    expectTypeOf<RouteInput<typeof added>['query']>().toEqualTypeOf<{ big: 'yes' | 'no' }>();
  });
});

describe('the types a handler gets follow from its entry', () => {
  it('a provider in the path is a Provider; a query its schema’s output; nothing is nothing', () => {
    expectTypeOf<RouteInput<EdgeRouteOf<'getProviderStatus'>>['params']>().toEqualTypeOf<{
      readonly provider: Provider;
    }>();
    expectTypeOf<RouteInput<EdgeRouteOf<'getTimeline'>>['query']>().toEqualTypeOf<{
      provider: Provider | 'all';
      limit: number;
      format: 'json' | 'csv';
    }>();
    expectTypeOf<RouteInput<EdgeRouteOf<'getFeedAtom'>>['query']>().toEqualTypeOf<{
      provider?: Provider | undefined;
    }>();
    expectTypeOf<RouteInput<EdgeRouteOf<'getStatus'>>>().toEqualTypeOf<{
      readonly params: Readonly<Record<never, never>>;
      readonly query: Readonly<Record<never, never>>;
    }>();
  });
});
