import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { expect } from 'vitest';

/** Checks served responses against the served OpenAPI document: the document first, then each body. */

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const DOCUMENT_ID = 'https://contract.test/openapi.json';

interface Operation {
  responses: Record<string, { content?: Record<string, { schema: object }> }>;
}
interface OpenApiDocument extends Record<string, unknown> {
  paths: Record<string, Record<string, Operation>>;
  components: object;
}

export async function loadContract(baseUrl: string) {
  const document = (await (await fetch(`${baseUrl}/openapi.json`)).json()) as OpenApiDocument;
  expect(await new Validator().validate(document)).toEqual({ valid: true });
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
  ajv.addSchema({ $id: DOCUMENT_ID, components: document.components });

  /** Asserts that `body` is what the document promises for this path, method and status. */
  function expectBodyMatches(
    path: string,
    status: number,
    body: unknown,
    method = 'get',
    mediaType = 'application/json',
  ) {
    const schema = document.paths[path]?.[method]?.responses[String(status)]?.content?.[mediaType]?.schema;
    expect(schema, `the document describes ${method.toUpperCase()} ${path} ${status} ${mediaType}`).toBeDefined();
    const rebased = JSON.parse(
      JSON.stringify(schema).replaceAll('"#/components/', `"${DOCUMENT_ID}#/components/`),
    ) as object;
    const validate = ajv.compile(rebased);
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
  }
  return { document, expectBodyMatches };
}
