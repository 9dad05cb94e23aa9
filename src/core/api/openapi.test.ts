import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ForecastSchema } from '../forecast/schemas.ts';
import { EventSchema, StatusResponseSchema } from '../schemas.ts';
import { ROUTES } from '../routes/table.ts';
import { buildOpenApiDocument } from './openapi.ts';

const document = buildOpenApiDocument('https://board.example');

describe('buildOpenApiDocument', () => {
  it('is a valid OpenAPI 3.1.0 document, API version 1.0.0', async () => {
    expect(await new Validator().validate(document)).toEqual({ valid: true });
    expect(document).toMatchObject({
      openapi: '3.1.0',
      info: { version: '1.0.0' },
      servers: [{ url: 'https://board.example' }],
    });
  });

  it('describes every path of the route table, each method as its entry’s operation, and nothing else', () => {
    const paths = document['paths'] as Record<string, Record<string, { operationId: string }>>;
    expect(Object.keys(paths).sort()).toEqual([...new Set(ROUTES.map((route) => route.path))].sort());
    for (const route of ROUTES)
      for (const method of route.methods) {
        expect(paths[route.path]![method.toLowerCase()]?.operationId, `${method} ${route.path}`).toBe(route.id);
        if (method === 'GET') expect(paths[route.path]!['head']?.operationId).toBe(`${route.id}Head`);
      }
  });

  it('describes the endpoints the spec names (section 4), with their aliases', () => {
    for (const path of ['/api/status', '/api/timeline', '/api/timeline.csv', '/feed.xml', '/api/feed', '/api/ics'])
      expect(document['paths'], path).toHaveProperty([path, 'get']);
    for (const path of ['/index.md', '/zh/index.md', '/ja/index.md', '/pt-br/index.md'])
      expect(document['paths'], path).toHaveProperty([path, 'get']);
    for (const path of ['/mcp', '/api/mcp']) expect(document['paths'], path).toHaveProperty([path, 'post']);
  });

  it('says a push write may answer 503 with Retry-After, and the key (a read) 503 without', () => {
    const paths = document['paths'] as Record<
      string,
      Record<string, { responses: Record<string, { headers: Record<string, unknown> }> }>
    >;
    const retryAfter = { $ref: '#/components/headers/RetryAfter' };
    for (const method of ['post', 'delete']) {
      const unavailable = paths['/api/push/subscriptions']![method]!.responses['503']!;
      expect(unavailable.headers['Retry-After'], method).toEqual(retryAfter);
    }
    expect(paths['/api/push/key']!['get']!.responses['503']!.headers['Retry-After']).toBeUndefined();
  });

  it('says an error body lists at most 21 issues (20, then how many more)', () => {
    const schemas = (document['components'] as { schemas: Record<string, { properties: Record<string, object> }> })
      .schemas;
    expect(schemas['Error']!.properties['issues']).toMatchObject({ maxItems: 21 });
  });

  it('takes its schemas from the zod schemas, not a second copy', () => {
    const schemas = (document['components'] as { schemas: Record<string, unknown> }).schemas;
    const required = (schema: z.ZodObject) => Object.keys(schema.shape);
    expect((schemas['Event'] as { required: string[] }).required).toEqual(required(EventSchema));
    expect((schemas['StatusResponse'] as { required: string[] }).required).toEqual(required(StatusResponseSchema));
    expect(JSON.stringify(schemas)).not.toContain('#/$defs/');
  });

  it('describes the forecast endpoints with the Forecast* components', () => {
    const schemas = (document['components'] as { schemas: Record<string, unknown> }).schemas;
    const paths = document['paths'] as Record<string, { get: { responses: Record<string, unknown> } }>;
    const okSchema = (path: string) =>
      (paths[path]!.get.responses['200'] as { content: Record<string, { schema: unknown }> }).content[
        'application/json'
      ]!.schema;
    expect(okSchema('/api/forecast')).toEqual({ $ref: '#/components/schemas/ForecastResponse' });
    expect(okSchema('/api/forecast/track-record')).toEqual({ $ref: '#/components/schemas/ForecastTrackRecord' });
    for (const id of [
      'Forecast',
      'ForecastBasis',
      'ForecastResponse',
      'ForecastTrackRecord',
      'ProviderForecastTrackRecord',
      'ForecastHorizonScore',
      'ReliabilityBin',
    ])
      expect(schemas[id], id).toBeDefined();
    expect((schemas['Forecast'] as { required: string[] }).required).toEqual(Object.keys(ForecastSchema.shape));
    expect(JSON.stringify(schemas['ForecastResponse'])).toContain('#/components/schemas/Forecast"');
  });
});
