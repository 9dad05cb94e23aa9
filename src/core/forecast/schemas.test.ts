import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { summarizeProvider } from '../history.ts';
import { MS_PER_DAY } from '../ordering.ts';
import { makeEvent } from '../test-events.ts';
import { forecastResponse } from './rule.ts';
import { buildOpenApiDocument } from '../api/openapi.ts';
import { seededRandom } from '../seeded-random.ts';
import { resetsWithDrawnGaps } from './test-histories.ts';
import { forecastTrackRecord } from './track-record.ts';

/** The OpenAPI document's components, as published (src/core/api/openapi.ts). */
const components = (buildOpenApiDocument('http://127.0.0.1:4321').components as { schemas: Record<string, object> })
  .schemas;

function validatorFor(id: string) {
  const ajv = new Ajv2020({ strict: false });
  addFormats.default(ajv);
  const document = { $id: 'doc', components: { schemas: components } };
  ajv.addSchema(document);
  return ajv.getSchema(`doc#/components/schemas/${id}`)!;
}

describe('the forecast schemas as OpenAPI components', () => {
  it('are registered under their ids', () => {
    for (const id of [
      'Forecast',
      'ForecastResponse',
      'ForecastBasis',
      'ForecastTrackRecord',
      'ProviderForecastTrackRecord',
      'ReliabilityBin',
    ]) {
      expect(components[id]).toBeDefined();
    }
    expect(JSON.stringify(components['ForecastResponse'])).toContain('#/components/schemas/Forecast"');
  });

  it('describe the real responses (checked by a JSON Schema validator, not by zod)', () => {
    const next = seededRandom(5);
    const { events } = resetsWithDrawnGaps(40, () => 1 + 4 * next());
    const lastMs = Date.parse(events.at(-1)!.announcedAt);
    const withTease = [
      ...events,
      makeEvent({
        provider: 'provider_b',
        kind: 'tease',
        announcedAt: new Date(lastMs).toISOString(),
        effectiveAt: new Date(lastMs + MS_PER_DAY).toISOString(),
      }),
    ];
    const builtAt = new Date(lastMs);
    const summaries = {
      provider_a: summarizeProvider('provider_a', withTease, builtAt),
      provider_b: summarizeProvider('provider_b', withTease, builtAt),
      provider_c: summarizeProvider('provider_c', withTease, builtAt),
    };
    const response = forecastResponse(summaries, new Date(lastMs + 0.5 * MS_PER_DAY));
    expect(response.providers.map((entry) => entry.basis)).toEqual(['cadence', 'teased', 'no_data']);
    const validateResponse = validatorFor('ForecastResponse');
    expect(validateResponse(response), JSON.stringify(validateResponse.errors)).toBe(true);
    const validateRecord = validatorFor('ForecastTrackRecord');
    expect(validateRecord(forecastTrackRecord(withTease, builtAt)), JSON.stringify(validateRecord.errors)).toBe(true);
    expect(validateResponse({ ...response, providers: [{ ...response.providers[0], basis: 'guess' }] })).toBe(false);
  });
});
