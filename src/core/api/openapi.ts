import { MEDIAN_BASIS_RESETS } from '../cadence.ts';
import { z } from 'zod';
import '../dataset.ts';
import { CACHE_POLICIES, mediaTypeOf, type ContentTypeName } from '../routes/policy.ts';
import { routesByPath } from '../routes/match.ts';
import { allowedMethods, preflightMethods, ROUTE_TAGS, type BodySpec, type RouteSpec } from '../routes/route.ts';
import { ROUTES } from '../routes/table.ts';
import '../schemas.ts';
import { API_VERSION, SERVICE_NAME } from '../site.ts';

/**
 * The OpenAPI 3.1 document, generated from the route table (src/core/routes/table.ts) and the zod schemas:
 * components from every schema registered with an id, parameters from the query and path schemas, and every
 * status a route can answer from what the table says of it. Only the prose of the statuses is written here.
 */

type JsonObject = Record<string, unknown>;
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** zod's JSON Schema, with its local `$defs` references pointed at the document's components. */
function componentRefs(schema: JsonObject): JsonObject {
  const text = JSON.stringify(schema).replaceAll('"#/$defs/', '"#/components/schemas/');
  const { $schema: _schema, $defs: _defs, $id: _id, ...rest } = JSON.parse(text) as JsonObject;
  return rest;
}

/**
 * A query parameter as it travels: its input side, a string (`limit` is `^[0-9]+$` there, then a bound), so a
 * validating proxy checks what the service checks; a default is written as the string a client would send.
 */
function queryParameters(schema: z.ZodObject, required: readonly string[] = []): JsonObject[] {
  return Object.entries(schema.shape).map(([name, field]) => {
    const described = componentRefs(
      z.toJSONSchema(field as z.ZodType, { io: 'input', target: 'draft-2020-12' }) as JsonObject,
    );
    const { description, ...fieldSchema } = described;
    if (fieldSchema['type'] === 'string' && typeof fieldSchema['default'] === 'number')
      fieldSchema['default'] = String(fieldSchema['default']);
    return { name, in: 'query', required: required.includes(name), description, schema: fieldSchema };
  });
}

const header = (name: string) => ({ $ref: `#/components/headers/${name}` });
const cors = { 'Access-Control-Allow-Origin': header('AccessControlAllowOrigin') };

/** The schema a lazy one stands for (src/core/lazy-schema.ts), made now: its id is registered as it is made. */
const made = (schema: z.ZodType): z.ZodType =>
  schema instanceof z.ZodLazy ? made(schema.unwrap() as z.ZodType) : schema;

/** A schema as the document refers to it: a `$ref` to its component when it is registered with an id. */
function bodySchema(body: BodySpec): JsonObject {
  if (body === 'text') return { type: 'string' };
  const schema = made(body);
  const id = z.globalRegistry.get(schema)?.id;
  if (id !== undefined) return ref(id);
  return componentRefs(z.toJSONSchema(schema, { io: 'output', target: 'draft-2020-12' }) as JsonObject);
}

/**
 * Every schema the routes name, and every schema inside those, made, so that each id is in the registry before
 * the components are read from it (a lazy schema registers its id only once made: src/core/lazy-schema.ts).
 */
function makeEverySchema(routes: readonly RouteSpec[]): void {
  const schemas = routes.flatMap((route) => [
    ...Object.values(route.ok.content).filter((body) => body !== 'text'),
    ...Object.values(route.pathParams ?? {}),
    ...(route.query ? [route.query.schema] : []),
    ...(route.requestBody ? [route.requestBody.schema] : []),
  ]);
  // Turning a schema into JSON Schema walks it whole, making every lazy schema on the way.
  for (const schema of schemas) z.toJSONSchema(made(schema), { io: 'output', target: 'draft-2020-12' });
}

const errorResponse = (description: string) => ({
  description,
  headers: cors,
  content: { 'application/json': { schema: ref('Error') } },
});

function pathParameters(route: RouteSpec): JsonObject[] {
  return Object.entries(route.pathParams ?? {}).map(([name, schema]) => ({
    name,
    in: 'path',
    required: true,
    schema: bodySchema(schema),
  }));
}

/** Every GET answered `200` carries a validator and honours If-None-Match (src/server/http/conditional.ts). */
const answersConditionally = (route: RouteSpec): boolean =>
  route.methods.includes('GET') && (route.ok.status ?? 200) === 200;

/** Every answer of a route but its success: each follows from a fact of the table. */
function otherResponses(route: RouteSpec, pathRoutes: readonly RouteSpec[]): JsonObject {
  const allow = { ...cors, Allow: { schema: { type: 'string', const: allowedMethods(pathRoutes).join(', ') } } };
  const responses: JsonObject = {};
  if (answersConditionally(route))
    responses['304'] = {
      description: route.conditional
        ? 'not modified: the If-None-Match validator still names the data (or is `*`)'
        : 'not modified: the If-None-Match validator still names these bytes (or is `*`)',
      headers: { ...cors, ETag: header('ETag') },
    };
  if (route.query !== undefined)
    responses['400'] = errorResponse('invalid query parameters: `invalid_query` with `issues`');
  if (route.pathParams !== undefined) {
    responses['404'] =
      route.served === 'edge'
        ? errorResponse(route.notFound?.description ?? 'unknown provider: `invalid_provider`')
        : { description: 'no such file', headers: cors };
  }
  responses['405'] = route.jsonRpc
    ? {
        description: 'another method: a JSON-RPC error',
        headers: allow,
        content: { 'application/json': { schema: ref('JsonRpcResponse') } },
      }
    : { description: 'another method; `Allow` lists the ones this path answers', headers: allow };
  if (route.served === 'edge' && route.needsData)
    responses['500'] = errorResponse('the data source is unavailable: `internal_error`');
  for (const [status, description] of Object.entries(route.requestErrors ?? {})) {
    // 429 says when the limit lets the client write again; a write's 503, when its store may be back.
    const retries = status === '429' || (status === '503' && route.requestBody !== undefined);
    const withRetry = retries ? { ...cors, 'Retry-After': header('RetryAfter') } : cors;
    responses[status] = { ...errorResponse(description), headers: withRetry };
  }
  // A page's refusal is a page: text/html, beside the JSON error the same status may also be (a malformed id's 404).
  for (const [status, description] of Object.entries(route.pageErrors ?? {})) {
    const page = { 'text/html': { schema: { type: 'string' } } };
    const json = responses[status] as { description: string; content: JsonObject } | undefined;
    responses[status] =
      json === undefined
        ? { description, headers: cors, content: page }
        : { ...json, description: `${json.description}; ${description}`, content: { ...json.content, ...page } };
  }
  for (const [status, description] of Object.entries(route.protocolStatuses ?? {})) {
    const withRetry = status === '429' ? { ...allow, 'Retry-After': header('RetryAfter') } : cors;
    responses[status] =
      status === '202'
        ? { description, headers: cors }
        : { description, headers: withRetry, content: { 'application/json': { schema: ref('JsonRpcResponse') } } };
  }
  return responses;
}

function successResponse(route: RouteSpec, withBody: boolean): JsonObject {
  const headers: JsonObject = {
    ...cors,
    'Cache-Control': { schema: { type: 'string', const: CACHE_POLICIES[route.cache] } },
  };
  if (answersConditionally(route)) headers['ETag'] = header('ETag');
  for (const name of route.ok.headers ?? [])
    headers[name === 'Location' ? 'Location' : name.startsWith('ContentDisposition') ? 'Content-Disposition' : name] =
      header(name);
  const content = Object.fromEntries(
    Object.entries(route.ok.content).map(([type, body]) => [
      mediaTypeOf(type as ContentTypeName),
      { schema: bodySchema(body) },
    ]),
  );
  return {
    description: route.ok.description,
    headers,
    ...(withBody && Object.keys(content).length > 0 ? { content } : {}),
  };
}

/**
 * A JSON-RPC route's request body is a JSON-RPC message; a write's is its own schema. A form's fields travel as
 * text, so its schema is the input side (as a query's parameters are).
 */
function requestBody(route: RouteSpec): JsonObject {
  if (route.requestBody?.form) {
    const schema = componentRefs(
      z.toJSONSchema(route.requestBody.schema, { io: 'input', target: 'draft-2020-12' }) as JsonObject,
    );
    return { requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema } } } };
  }
  const schema = route.requestBody === undefined ? ref('JsonRpcRequest') : bodySchema(route.requestBody.schema);
  return { requestBody: { required: true, content: { 'application/json': { schema } } } };
}

function successResponses(route: RouteSpec, withBody: boolean): JsonObject {
  const first = { [String(route.ok.status ?? 200)]: successResponse(route, withBody) };
  // The same body under another status: a write's 200 beside its 201, or a health check's 503 while failing.
  const others = [route.ok.alsoOk, route.ok.alsoAnswers].filter((other) => other !== undefined);
  return Object.assign(
    first,
    ...others.map(({ status, description }) => ({
      [String(status)]: { ...successResponse(route, withBody), description },
    })),
  );
}

function operations(route: RouteSpec, pathRoutes: readonly RouteSpec[]): JsonObject {
  // Path parameters are the path item's (every method's, OPTIONS included); the query is the reading methods'.
  const parameters = route.query === undefined ? [] : queryParameters(route.query.schema, route.query.required);
  const operation = (method: string, withBody: boolean) => ({
    operationId: method === 'head' ? `${route.id}Head` : route.id,
    tags: [route.tag],
    summary: method === 'head' ? `${route.summary} (headers only)` : route.summary,
    ...(route.description === undefined ? {} : { description: route.description }),
    security: [],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(method === 'post' || method === 'delete' ? requestBody(route) : {}),
    responses: { ...successResponses(route, withBody), ...otherResponses(route, pathRoutes) },
  });
  const result: JsonObject = {};
  for (const method of route.methods) result[method.toLowerCase()] = operation(method.toLowerCase(), true);
  if (route.methods.includes('GET')) result['head'] = operation('head', false);
  return result;
}

/** OPTIONS of a path: once, for all its entries. */
function optionsOperation(pathRoutes: readonly RouteSpec[]): JsonObject {
  const route = pathRoutes[0]!;
  return {
    operationId: `${route.id}Options`,
    tags: [route.tag],
    summary: route.preflight ? 'CORS preflight' : 'The methods this path answers',
    security: [],
    responses: {
      '204': {
        description: route.preflight ? 'any origin may call this path' : '`Allow` lists the methods',
        headers: {
          ...cors,
          Allow: { schema: { type: 'string', const: allowedMethods(pathRoutes).join(', ') } },
          ...(route.preflight
            ? {
                'Access-Control-Allow-Methods': {
                  schema: { type: 'string', const: preflightMethods(pathRoutes).join(', ') },
                },
                'Access-Control-Max-Age': { schema: { type: 'string', const: '86400' } },
              }
            : {}),
        },
      },
    },
  };
}

/** `routes`: the route table (another list only in the test that proves a new route follows from its entry). */
export function buildOpenApiDocument(baseUrl: string, routes: readonly RouteSpec[] = ROUTES): JsonObject {
  makeEverySchema(routes);
  const { schemas } = z.toJSONSchema(z.globalRegistry, {
    target: 'draft-2020-12',
    uri: (id) => `#/components/schemas/${id}`,
  });
  // By id: the registry's order is the order the schemas were made in, which lazy ones make vary.
  const components = Object.fromEntries(
    Object.entries(schemas)
      .sort(([a], [b]) => a.localeCompare(b, 'en'))
      .map(([id, schema]) => [id, componentRefs(schema as JsonObject)]),
  );

  return {
    openapi: '3.1.0',
    info: {
      title: `${SERVICE_NAME} API`,
      version: API_VERSION,
      description: `Official usage-limit reset announcements of three AI coding-tool providers, and the board derived from them. Free, read-only, no key. \`nextEstimate\` is a cadence estimate (last reset + median gap of the last ${MEDIAN_BASIS_RESETS} resets), not a vendor schedule. Consumers must tolerate null fields. Please link back and keep each event’s sourceUrl when republishing.`,
    },
    servers: [{ url: baseUrl }],
    security: [],
    tags: Object.entries(ROUTE_TAGS).map(([name, description]) => ({ name, description })),
    paths: Object.fromEntries(
      routesByPath(routes).map(([path, pathRoutes]) => {
        const parameters = pathParameters(pathRoutes[0]!);
        const methods = pathRoutes.map((route) => operations(route, pathRoutes));
        return [
          path,
          {
            ...(parameters.length > 0 ? { parameters } : {}),
            ...Object.assign({}, ...methods),
            options: optionsOperation(pathRoutes),
          },
        ];
      }),
    ),
    components: {
      schemas: components,
      headers: {
        AccessControlAllowOrigin: {
          description: 'every response may be read from any origin',
          schema: { type: 'string', const: '*' },
        },
        ETag: {
          description:
            'a validator: of the data in the body for edge-computed JSON (clock-only fields excluded), else of the bytes; send it back in If-None-Match',
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
        Link: {
          description:
            'RFC 8288: the WebSub hub (`rel="hub"`) and the feed’s own canonical address, its WebSub topic (`rel="self"`)',
          schema: { type: 'string' },
        },
      },
    },
  };
}
