import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { endpointListings } from '../api/endpoints.ts';
import { buildOpenApiDocument } from '../api/openapi.ts';
import { createMatcher, matchEdgeRoute, workerFirstPatterns } from './match.ts';
import type { RouteSpec } from './route.ts';
import { ROUTES } from './table.ts';

type Operations = Record<string, { operationId: string; responses: Record<string, unknown> }>;
const pathsOf = (document: Record<string, unknown>) => document['paths'] as Record<string, Operations>;

/** A concrete path for a template: each `{name}` filled with a value the route accepts. */
const concrete = (template: string) => template.replace('{provider}', 'provider_b').replace('{year}', '2026');

describe('the route table', () => {
  it('has unique ids, and a path shared by entries only when each has methods of its own', () => {
    expect(new Set(ROUTES.map((route) => route.id)).size).toBe(ROUTES.length);
    for (const path of new Set(ROUTES.map((route) => route.path))) {
      const methods = ROUTES.filter((route) => route.path === path).flatMap((route) => [...route.methods]);
      expect(new Set(methods).size, path).toBe(methods.length);
    }
  });

  it('routes every edge path, with its named parts, and nothing else', () => {
    for (const route of ROUTES.filter((candidate) => candidate.served === 'edge')) {
      const match = matchEdgeRoute(concrete(route.path));
      expect(
        match?.routes.map((entry) => entry.id),
        route.path,
      ).toContain(route.id);
      if (route.path.includes('{provider}')) expect(match?.params).toEqual({ provider: 'provider_b' });
    }
    for (const path of [
      '/',
      '/provider_a',
      '/tracker',
      '/openapi.json',
      '/data/board.json',
      '/api/unknown',
      '/api/status/a/b',
    ]) {
      expect(matchEdgeRoute(path), path).toBeUndefined();
    }
  });

  it('is what wrangler.jsonc runs the worker first for', () => {
    const jsonc = readFileSync('wrangler.jsonc', 'utf8').replace(/^\s*\/\/.*$/gm, '');
    const config = JSON.parse(jsonc) as { assets: { run_worker_first: string[] } };
    expect([...config.assets.run_worker_first].sort()).toEqual(workerFirstPatterns());
  });

  it('gives each route its OpenAPI path, with an operation per method and every status it can answer', () => {
    const paths = pathsOf(buildOpenApiDocument('https://board.example'));
    expect(Object.keys(paths).sort()).toEqual([...new Set(ROUTES.map((route) => route.path))].sort());
    for (const route of ROUTES) {
      const operations = paths[route.path]!;
      const method = route.methods[0].toLowerCase();
      const statuses = Object.keys(operations[method]!.responses).sort();
      expect(operations[method]!.operationId).toBe(route.id);
      const expected = new Set([String('status' in route.ok ? route.ok.status : 200), '405']);
      if ('alsoOk' in route.ok) expected.add(String(route.ok.alsoOk.status));
      if ('alsoAnswers' in route.ok) expected.add(String(route.ok.alsoAnswers.status));
      if ('requestErrors' in route) for (const status of Object.keys(route.requestErrors)) expected.add(status);
      if ('pageErrors' in route) for (const status of Object.keys(route.pageErrors)) expected.add(status);
      if ((route.methods as readonly string[]).includes('GET') && !('status' in route.ok)) expected.add('304');
      if ('query' in route) expected.add('400');
      if ('pathParams' in route) expected.add('404');
      if (route.served === 'edge' && route.needsData) expected.add('500');
      if ('protocolStatuses' in route) for (const status of Object.keys(route.protocolStatuses)) expected.add(status);
      expect(statuses, route.path).toEqual([...expected].sort());
      // Path parameters belong to the path item, so that every method (OPTIONS too) defines them.
      const pathMethods = ROUTES.filter((entry) => entry.path === route.path).flatMap((entry) =>
        entry.methods.flatMap((name) => (name === 'GET' ? ['get', 'head'] : [name.toLowerCase()])),
      );
      expect(Object.keys(operations).sort(), route.path).toEqual(
        [...pathMethods, 'options', ...('pathParams' in route ? ['parameters'] : [])].sort(),
      );
    }
  });

  it('lists exactly the routes it marks for listing, in both languages', () => {
    const listed = ROUTES.filter((route) => 'listing' in route);
    for (const locale of ['en', 'zh'] as const) {
      const listings = endpointListings(locale);
      expect(listings).toHaveLength(listed.length);
      for (const [index, route] of listed.entries()) {
        expect(listings[index]!.path.split('?')[0], route.path).toBe(
          concrete(route.path).replace('provider_b', 'provider_a'),
        );
        expect(listings[index]!.title.length).toBeGreaterThan(0);
      }
    }
  });

  it('a new entry is routed and described with nothing else written', () => {
    const added: RouteSpec = {
      id: 'getExample',
      path: '/api/example/{provider}',
      methods: ['GET'],
      tag: 'board',
      summary: 'An example',
      pathParams: { provider: z.enum(['provider_a']) },
      query: { schema: z.object({ limit: z.string().optional() }) },
      ok: { description: 'an example', content: { json: z.object({ ok: z.boolean() }) } },
      cache: 'api',
      served: 'edge',
      conditional: true,
      preflight: true,
      needsData: true,
    };
    const routes = [...ROUTES, added];
    expect(createMatcher(routes)('/api/example/provider_a')).toEqual({
      route: added,
      routes: [added],
      params: { provider: 'provider_a' },
    });
    const operation = pathsOf(buildOpenApiDocument('https://board.example', routes))['/api/example/{provider}']!;
    expect(operation['get']!.operationId).toBe('getExample');
    expect(Object.keys(operation['get']!.responses).sort()).toEqual(['200', '304', '400', '404', '405', '500']);
    expect(operation['options']!.responses['204']).toMatchObject({
      headers: { 'Access-Control-Allow-Methods': { schema: { const: 'GET, OPTIONS' } } },
    });
  });
});
