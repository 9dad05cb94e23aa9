import { z } from 'zod';
import { PROVIDERS } from '../enums.ts';
import { FEED_FORMATS } from '../render/feeds.ts';
import '../dataset.ts';
import '../schemas.ts';
import { API_VERSION, SERVICE_NAME } from '../site.ts';
import { FeedQuerySchema, IcsQuerySchema, TimelineCsvQuerySchema, TimelineQuerySchema } from './query.ts';

/**
 * The OpenAPI 3.1 document, generated from the zod schemas: components from every schema registered with an
 * id, parameters from the query schemas. Only the prose and the path table are written here.
 */

type JsonObject = Record<string, unknown>;
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** zod's JSON Schema, with its local `$defs` references pointed at the document's components. */
function componentRefs(schema: JsonObject): JsonObject {
  const text = JSON.stringify(schema).replaceAll('"#/$defs/', '"#/components/schemas/');
  const { $schema: _schema, $defs: _defs, $id: _id, ...rest } = JSON.parse(text) as JsonObject;
  return rest;
}

function queryParameters(schema: z.ZodObject, required: readonly string[] = []) {
  return Object.entries(schema.shape).map(([name, field]) => {
    const described = componentRefs(
      z.toJSONSchema(field as z.ZodType, { io: 'output', target: 'draft-2020-12' }) as JsonObject,
    );
    const { description, ...fieldSchema } = described;
    return { name, in: 'query', required: required.includes(name), description, schema: fieldSchema };
  });
}

const header = (name: string) => ({ $ref: `#/components/headers/${name}` });
const cors = { 'Access-Control-Allow-Origin': header('AccessControlAllowOrigin') };
const cached = { ...cors, 'Cache-Control': header('CacheControl') };

const errorResponse = (description: string) => ({
  description,
  headers: cors,
  content: { 'application/json': { schema: ref('Error') } },
});
const invalidQuery = errorResponse('invalid query parameters: `invalid_query` with `issues`');
const internalError = errorResponse('the data source is unavailable: `internal_error`');

const preflight = {
  summary: 'CORS preflight',
  responses: {
    '204': {
      description: 'any origin may call this path',
      headers: {
        ...cors,
        'Access-Control-Allow-Methods': { schema: { type: 'string', const: 'GET, OPTIONS' } },
        'Access-Control-Max-Age': { schema: { type: 'string', const: '86400' } },
      },
    },
  },
};

const textResponse = (description: string, mediaType: string, headers: JsonObject = cached) => ({
  description,
  headers,
  content: { [mediaType]: { schema: { type: 'string' } } },
});

const feedPath = (format: keyof typeof FEED_FORMATS, title: string) => ({
  get: {
    summary: title,
    description: `The latest 100 announcements, newest first${format === 'rss' ? ' (spec 4.4)' : ', the same items as /feed.xml'}.`,
    parameters: queryParameters(FeedQuerySchema),
    responses: {
      '200': textResponse(title, FEED_FORMATS[format].contentType.split(';')[0]!),
      '400': invalidQuery,
      '500': internalError,
    },
  },
  ...(format === 'rss' ? { options: preflight } : {}),
});

const mcpOperation = (summary: string) => ({
  post: {
    summary,
    description:
      'Model Context Protocol over Streamable HTTP (stateless). With `Accept: application/json, text/event-stream` the answer is server-sent events; without it, the same JSON-RPC message as `application/json`. Tools: get_status, get_timeline, get_next_estimate.',
    requestBody: { required: true, content: { 'application/json': { schema: ref('JsonRpcRequest') } } },
    responses: {
      '200': {
        description: 'the JSON-RPC response',
        headers: cors,
        content: {
          'application/json': { schema: ref('JsonRpcResponse') },
          'text/event-stream': { schema: { type: 'string' } },
        },
      },
      '429': {
        description: 'more than 60 requests in a minute from this IP',
        headers: { ...cors, 'Retry-After': header('RetryAfter') },
        content: { 'application/json': { schema: ref('JsonRpcResponse') } },
      },
    },
  },
});

export function buildOpenApiDocument(baseUrl: string): JsonObject {
  const { schemas } = z.toJSONSchema(z.globalRegistry, {
    target: 'draft-2020-12',
    uri: (id) => `#/components/schemas/${id}`,
  });
  const components = Object.fromEntries(
    Object.entries(schemas).map(([id, schema]) => [id, componentRefs(schema as JsonObject)]),
  );
  const jsonOk = (schema: string, description: string) => ({
    description,
    headers: { ...cached, ETag: header('ETag') },
    content: { 'application/json': { schema: ref(schema) } },
  });
  const csvOk = textResponse('RFC 4180 CSV, header first, newest first, CRLF after every row', 'text/csv', {
    ...cached,
    'Content-Disposition': header('ContentDispositionInline'),
  });

  return {
    openapi: '3.1.0',
    info: {
      title: `${SERVICE_NAME} API`,
      version: API_VERSION,
      description:
        'Official usage-limit reset announcements of three AI coding-tool providers, and the board derived from them. Free, read-only, no key. `nextEstimate` is a cadence estimate (last reset + median gap of the last 10 resets), not a vendor schedule. Consumers must tolerate null fields. Please link back and keep each event’s sourceUrl when republishing.',
    },
    servers: [{ url: baseUrl }],
    paths: {
      '/api/status': {
        get: {
          summary: 'The board: status, last reset, cadence estimate and statistics per provider',
          responses: {
            '200': jsonOk('StatusResponse', 'the board at request time'),
            '304': { description: 'not modified (If-None-Match)' },
            '500': internalError,
          },
        },
        options: preflight,
      },
      '/api/status/{provider}': {
        get: {
          summary: 'One provider’s status',
          parameters: [
            { name: 'provider', in: 'path', required: true, schema: { type: 'string', enum: [...PROVIDERS] } },
          ],
          responses: {
            '200': jsonOk('ProviderStatus', 'the provider’s board entry at request time'),
            '304': { description: 'not modified (If-None-Match)' },
            '404': errorResponse('unknown provider: `invalid_provider`'),
            '500': internalError,
          },
        },
      },
      '/api/timeline': {
        get: {
          summary: 'Announcements, newest first',
          parameters: queryParameters(TimelineQuerySchema),
          responses: {
            '200': {
              ...jsonOk(
                'TimelineResponse',
                'with format=json (the default): a TimelineResponse; with format=csv: as /api/timeline.csv',
              ),
              content: {
                'application/json': { schema: ref('TimelineResponse') },
                'text/csv': { schema: { type: 'string' } },
              },
            },
            '304': { description: 'not modified (If-None-Match)' },
            '400': invalidQuery,
            '500': internalError,
          },
        },
        options: preflight,
      },
      '/api/timeline.csv': {
        get: {
          summary: 'Announcements as CSV (columns id, date, provider, kind, scope, summary, source_url, page_url)',
          parameters: queryParameters(TimelineCsvQuerySchema),
          responses: { '200': csvOk, '400': invalidQuery, '500': internalError },
        },
        options: preflight,
      },
      '/feed.xml': feedPath('rss', 'RSS 2.0 feed'),
      '/feed.atom': feedPath('atom', 'Atom 1.0 feed'),
      '/feed.json': feedPath('json', 'JSON Feed 1.1'),
      '/api/feed': {
        get: {
          summary: 'Alias of /feed.xml',
          parameters: queryParameters(FeedQuerySchema),
          responses: {
            '308': {
              description: 'permanent redirect to /feed.xml, with the query’s provider',
              headers: { ...cors, Location: header('Location') },
            },
            '400': invalidQuery,
          },
        },
      },
      '/api/ics': {
        get: {
          summary: 'Calendar (RFC 5545) with a reminder for each of your own reset windows',
          parameters: queryParameters(IcsQuerySchema, ['provider']),
          responses: {
            '200': textResponse('one VEVENT per window passed in', 'text/calendar', {
              ...cors,
              'Cache-Control': { schema: { type: 'string', const: 'no-store' } },
              'Content-Disposition': header('ContentDispositionAttachment'),
            }),
            '400': invalidQuery,
          },
        },
        options: preflight,
      },
      '/index.md': {
        get: {
          summary: 'The board as Markdown (English)',
          responses: { '200': textResponse('regenerated per request', 'text/markdown'), '500': internalError },
        },
      },
      '/zh/index.md': {
        get: {
          summary: 'The board as Markdown (Chinese)',
          responses: { '200': textResponse('regenerated per request', 'text/markdown'), '500': internalError },
        },
      },
      '/llms.txt': {
        get: {
          summary: 'Where language models find the Markdown mirrors, this document and MCP',
          responses: { '200': textResponse('plain text', 'text/plain') },
        },
      },
      '/openapi.json': {
        get: {
          summary: 'This document',
          responses: {
            '200': {
              description: 'OpenAPI 3.1.0',
              headers: cors,
              content: { 'application/json': { schema: { type: 'object' } } },
            },
          },
        },
      },
      '/calendar.ics': {
        get: {
          summary: 'The newest 1,000 announcements and each provider’s estimate, to subscribe to',
          parameters: queryParameters(FeedQuerySchema),
          responses: { '200': textResponse('RFC 5545', 'text/calendar'), '400': invalidQuery, '500': internalError },
        },
      },
      '/calendar/{provider}.ics': {
        get: {
          summary: 'One provider’s subscribable calendar',
          parameters: [
            { name: 'provider', in: 'path', required: true, schema: { type: 'string', enum: [...PROVIDERS] } },
          ],
          responses: { '200': textResponse('RFC 5545', 'text/calendar') },
        },
      },
      '/badge/{provider}.svg': {
        get: {
          summary: 'An embeddable status badge',
          parameters: [
            { name: 'provider', in: 'path', required: true, schema: { type: 'string', enum: [...PROVIDERS] } },
          ],
          responses: {
            '200': textResponse('SVG image', 'image/svg+xml'),
            '404': errorResponse('unknown provider: `invalid_provider`'),
          },
        },
      },
      '/badge/{provider}.json': {
        get: {
          summary: 'The status badge as a shields.io endpoint',
          parameters: [
            { name: 'provider', in: 'path', required: true, schema: { type: 'string', enum: [...PROVIDERS] } },
          ],
          responses: {
            '200': {
              description: 'shields.io endpoint schema',
              headers: cached,
              content: { 'application/json': { schema: { type: 'object' } } },
            },
            '404': errorResponse('unknown provider: `invalid_provider`'),
          },
        },
      },
      '/data/events/index.json': {
        get: {
          summary: 'The whole history: one file per provider and year, listed',
          responses: {
            '200': {
              description: 'the files',
              headers: cors,
              content: { 'application/json': { schema: ref('HistoryIndex') } },
            },
          },
        },
      },
      '/data/events/{provider}/{year}.json': {
        get: {
          summary: 'One provider’s published events of one year, newest first',
          parameters: [
            { name: 'provider', in: 'path', required: true, schema: { type: 'string', enum: [...PROVIDERS] } },
            { name: 'year', in: 'path', required: true, schema: { type: 'integer' } },
          ],
          responses: {
            '200': {
              description: 'the events',
              headers: cors,
              content: { 'application/json': { schema: ref('PublishedEvents') } },
            },
          },
        },
      },
      '/.well-known/mcp.json': {
        get: {
          summary: 'The MCP server card',
          responses: {
            '200': {
              description: 'server card',
              headers: cors,
              content: { 'application/json': { schema: { type: 'object' } } },
            },
          },
        },
      },
      '/mcp': mcpOperation('MCP server (JSON-RPC 2.0 over HTTP POST)'),
      '/api/mcp': mcpOperation('Alias of /mcp'),
    },
    components: {
      schemas: components,
      headers: {
        AccessControlAllowOrigin: {
          description: 'every response may be read from any origin',
          schema: { type: 'string', const: '*' },
        },
        CacheControl: {
          description: 'edge caching: 60 s for JSON, CSV and Markdown, 300 s for feeds',
          schema: { type: 'string' },
        },
        ETag: {
          description:
            'a weak validator of the data in the body (clock-only fields excluded); send it back in If-None-Match',
          schema: { type: 'string' },
        },
        ContentDispositionInline: {
          schema: { type: 'string', examples: ['inline; filename=departures-board-timeline-all.csv'] },
        },
        ContentDispositionAttachment: {
          schema: { type: 'string', examples: ['attachment; filename=departures-board-provider_a.ics'] },
        },
        RetryAfter: { description: 'whole seconds to wait', schema: { type: 'integer', minimum: 0 } },
        Location: { schema: { type: 'string' } },
      },
    },
  };
}
