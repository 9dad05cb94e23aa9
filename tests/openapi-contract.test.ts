import { beforeAll, describe, expect, inject, it } from 'vitest';
import { loadContract } from './support/openapi-contract.ts';

/**
 * Every route of the served OpenAPI document, called as the document describes it, and every answer checked
 * against it with Ajv: the status is one the operation lists, the media type one it names, a JSON body valid
 * under its schema, and the headers it fixes (`Cache-Control`, `Allow`) as fixed.
 */

const baseUrl = inject('baseUrl');
let contract: Awaited<ReturnType<typeof loadContract>>;
let year = '';
let eventId = '';

interface DocumentedResponse {
  content?: Record<string, { schema: object }>;
  headers?: Record<string, { schema?: { const?: string } }>;
}
const operationOf = (path: string, method: string) =>
  (contract.document.paths[path] as unknown as Record<string, { responses: Record<string, DocumentedResponse> }>)[
    method
  ];

beforeAll(async () => {
  contract = await loadContract(baseUrl);
  const index = (await (await fetch(`${baseUrl}/data/events/index.json`)).json()) as {
    files: { provider: string; year: number }[];
  };
  year = String(index.files.find((file) => file.provider === 'provider_a')!.year);
  // A published event of the served build, read from the build's own timeline.
  const timeline = (await (await fetch(`${baseUrl}/api/timeline?limit=1`)).json()) as { events: { id: string }[] };
  eventId = timeline.events[0]!.id;
});

const concrete = (template: string) =>
  template.replace('{provider}', 'provider_a').replace('{year}', year).replace('{id}', eventId);

/** Checks one answer against the document. */
async function expectDocumented(path: string, method: string, response: Response): Promise<void> {
  const operation = operationOf(path, method);
  expect(operation, `${method} ${path} is documented`).toBeDefined();
  const documented = operation!.responses[String(response.status)];
  expect(
    documented,
    `${method.toUpperCase()} ${path} answered ${response.status}, which the document lists`,
  ).toBeDefined();
  for (const [name, header] of Object.entries(documented!.headers ?? {})) {
    if (header.schema?.const !== undefined)
      expect(response.headers.get(name), `${method} ${path} ${response.status} ${name}`).toBe(header.schema.const);
  }
  const body = await response.text();
  if (documented!.content === undefined || method === 'head' || body === '') return;
  const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
  expect(Object.keys(documented!.content), `${method} ${path} ${response.status}`).toContain(mediaType);
  if (/json$/.test(mediaType)) contract.expectBodyMatches(path, response.status, JSON.parse(body), method, mediaType);
}

describe('every route answers as the OpenAPI document says', () => {
  const paths = () => Object.keys(contract.document.paths);

  it('GET, HEAD, OPTIONS and a method no route answers, on every path', async () => {
    expect(paths().length).toBeGreaterThan(15);
    for (const path of paths()) {
      const url = `${baseUrl}${concrete(path)}${path === '/api/ics' ? '?provider=provider_a&resetAt=2026-11-21T18:30:00Z' : ''}`;
      const readable = operationOf(path, 'get') !== undefined;
      if (readable) {
        await expectDocumented(path, 'get', await fetch(url, { redirect: 'manual' }));
        await expectDocumented(path, 'head', await fetch(url, { method: 'HEAD', redirect: 'manual' }));
      }
      await expectDocumented(path, 'options', await fetch(url, { method: 'OPTIONS' }));
      // No route answers PUT: its 405 (with the path's `Allow`) is documented on each of the path's operations.
      const refused = await fetch(url, { method: 'PUT' });
      expect(refused.status, `PUT ${path}`).toBe(405);
      await expectDocumented(path, readable ? 'get' : 'post', refused);
    }
  });

  it('a validator sent back is 304, as documented', async () => {
    // ntfy's activation page answers 200 only for a topic stored with its token: tests/ntfy.test.ts opens it; the
    // review page only for a draft in D1 with its signed token: functions/api/review.test.ts opens it.
    const needsState = new Set(['/api/ntfy/activate', '/review/{id}']);
    for (const path of paths().filter(
      (candidate) => operationOf(candidate, 'get')?.responses['304'] !== undefined && !needsState.has(candidate),
    )) {
      const url = `${baseUrl}${concrete(path)}${path === '/api/ics' ? '?provider=provider_a&resetAt=2026-11-21T18:30:00Z' : ''}`;
      const etag = (await fetch(url)).headers.get('etag');
      expect(etag, `${path} has an ETag`).not.toBeNull();
      await expectDocumented(path, 'get', await fetch(url, { headers: { 'If-None-Match': etag! } }));
    }
  });

  it('a bad query is 400 and an unknown provider 404, each as documented', async () => {
    for (const path of paths()) {
      const get = operationOf(path, 'get');
      if (get === undefined) continue;
      if (get.responses['400'] !== undefined) {
        const response = await fetch(`${baseUrl}${concrete(path)}?provider=nobody`, { redirect: 'manual' });
        expect(response.status, path).toBe(400);
        await expectDocumented(path, 'get', response);
      }
      if (path.includes('{provider}')) {
        const response = await fetch(`${baseUrl}${path.replace('{provider}', 'provider_z').replace('{year}', year)}`);
        expect(response.status, path).toBe(404);
        await expectDocumented(path, 'get', response);
      }
    }
  });
});
