import { describe, expect, it } from 'vitest';
import { fixtureFiles } from '../../scripts/lib/built-files.ts';
import { edgeApp } from '../../scripts/lib/edge-app.ts';
import { commonRequest } from '../../src/core/mcp/common-requests.ts';
import { makeEvent, NOW, resetsWithGaps } from '../../src/core/test-events.ts';
import { createContext } from '../../src/server/context.ts';
import { answerCommonRequest } from './common-requests.ts';
import { negotiate } from './sdk-adapter.ts';
import { answerWithSdk } from './sdk-path.ts';

/**
 * The common requests' path (common-requests.ts) against the SDK, request by request: for each message an agent's
 * first exchange holds, in both framings, the common path answers (it does not hand over to the SDK) and its answer
 * is the SDK's, status, media type and body byte for byte; every other message goes to the SDK.
 */

const EVENTS = [
  ...resetsWithGaps([6, 7, 8, 6, 7, 9], 3).map((event) => ({ ...event, provider: 'provider_a' as const })),
  makeEvent({ provider: 'provider_b', kind: 'boost', announcedAt: '2026-06-10T08:00:00.000Z' }),
  makeEvent({ provider: 'provider_b', kind: 'reset', announcedAt: '2026-06-11T08:00:00.000Z' }),
];
const app = edgeApp(fixtureFiles(EVENTS, NOW));
const ORIGIN = 'http://localhost:4321';
const JSON_ONLY = 'application/json';
const BOTH = 'application/json, text/event-stream';

const message = (method: string, params?: object, id: number | string = 7) => ({
  jsonrpc: '2.0',
  id,
  method,
  ...(params === undefined ? {} : { params }),
});
const initialize = (protocolVersion: string, extra: object = {}) =>
  message('initialize', {
    protocolVersion,
    capabilities: {},
    clientInfo: { name: 'two-paths', version: '1.0.0' },
    ...extra,
  });
const toolCall = (name: string, args?: object) =>
  message('tools/call', { name, ...(args === undefined ? {} : { arguments: args }) });

const post = (body: unknown, accept: string, headers: Record<string, string> = {}) =>
  new Request(`${ORIGIN}/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: accept, ...headers },
    body: JSON.stringify(body),
  });
const snapshot = async (response: Response) => ({
  status: response.status,
  type: response.headers.get('content-type'),
  cacheControl: response.headers.get('cache-control'),
  body: await response.text(),
});

async function bothPaths(body: unknown, accept: string, headers: Record<string, string> = {}) {
  const common = commonRequest(body);
  const fast =
    common === null
      ? null
      : await answerCommonRequest(createContext(post(body, accept, headers), app.env, NOW), common, accept === BOTH);
  const sdkRequest = post(body, accept, headers);
  const sdk = await answerWithSdk(createContext(sdkRequest, app.env, NOW), negotiate(sdkRequest), body);
  return { fast: fast === null ? null : await snapshot(fast), sdk: await snapshot(sdk) };
}

const COMMON: [string, unknown][] = [
  ['initialize at the latest version', initialize('2025-11-25')],
  ['initialize at an older supported version', initialize('2025-03-26')],
  ['initialize at a version the server does not know (the latest answered)', initialize('2099-01-01')],
  [
    'initialize with the capabilities clients send',
    message('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: { roots: { listChanged: true }, sampling: {}, elicitation: {} },
      clientInfo: { name: 'an agent', version: '0.1', title: 'An Agent' },
    }),
  ],
  ['ping', message('ping')],
  ['ping with a string id', message('ping', {}, 'abc-1')],
  ['tools/list', message('tools/list')],
  ['tools/list with empty params', message('tools/list', {})],
  ['get_status', toolCall('get_status', {})],
  ['get_status without arguments', toolCall('get_status')],
  ['get_timeline with its defaults', toolCall('get_timeline', {})],
  [
    'get_timeline of one provider and kind',
    toolCall('get_timeline', { provider: 'provider_a', limit: 3, kind: 'reset' }),
  ],
  ['get_next_estimate', toolCall('get_next_estimate', { provider: 'provider_a' })],
  ['get_next_estimate with no history', toolCall('get_next_estimate', { provider: 'provider_c' })],
  ['get_forecast', toolCall('get_forecast', { provider: 'provider_a' })],
  ['get_forecast of a short history', toolCall('get_forecast', { provider: 'provider_b' })],
];

describe('the common requests, answered without the SDK, as the SDK answers them', () => {
  for (const accept of [JSON_ONLY, BOTH])
    it.each(COMMON)(`%s (Accept: ${accept})`, async (_, body) => {
      const { fast, sdk } = await bothPaths(body, accept);
      expect(fast, 'the common path answered').not.toBeNull();
      expect(sdk.status).toBe(200);
      expect(fast).toEqual(sdk);
    });

  it('notifications/initialized: 202 without a body, as the SDK', async () => {
    const { fast, sdk } = await bothPaths({ jsonrpc: '2.0', method: 'notifications/initialized' }, BOTH);
    expect(sdk).toMatchObject({ status: 202, body: '' });
    expect(fast).toEqual(sdk);
  });

  it('a supported MCP-Protocol-Version header is answered on the common path', async () => {
    const { fast, sdk } = await bothPaths(message('tools/list'), BOTH, { 'MCP-Protocol-Version': '2025-06-18' });
    expect(fast).not.toBeNull();
    expect(fast).toEqual(sdk);
  });
});

describe('everything else goes to the SDK', () => {
  it.each([
    ['a batch', [message('ping')]],
    ['a request with _meta', message('tools/list', { _meta: { progressToken: 1 } })],
    ['tools/list with a cursor', message('tools/list', { cursor: 'x' })],
    ['an unknown tool', toolCall('get_weather', {})],
    ['a tool name that is an inherited property', toolCall('toString', {})],
    ['arguments out of range', toolCall('get_timeline', { limit: 1000 })],
    ['an unknown provider', toolCall('get_forecast', { provider: 'provider_z' })],
    ['arguments as a list', toolCall('get_status', [])],
    [
      'initialize with an odd capability value',
      initialize('2025-11-25', { capabilities: { roots: { listChanged: 'yes' } } }),
    ],
    [
      'initialize with a capability of another shape',
      initialize('2025-11-25', { capabilities: { sampling: { tools: {} } } }),
    ],
    ['initialize without clientInfo', message('initialize', { protocolVersion: '2025-11-25', capabilities: {} })],
    ['a fractional id', message('ping', undefined, 1.5)],
    ['another JSON-RPC version', { jsonrpc: '1.0', id: 1, method: 'ping' }],
    ['a member JSON-RPC does not name', { ...message('ping'), extra: true }],
    ['resources/list', message('resources/list')],
    ['a notification with an id', { jsonrpc: '2.0', id: 3, method: 'notifications/initialized' }],
  ])('%s', async (_, body) => {
    const common = commonRequest(body);
    if (common === null) return expect(common).toBeNull();
    // Recognised in shape, the arguments are the tool's to refuse: the common path hands over.
    const context = createContext(post(body, BOTH), app.env, NOW);
    expect(await answerCommonRequest(context, common, true)).toBeNull();
  });

  it('a protocol version header the SDK does not support: the SDK answers (its 400)', async () => {
    const { fast, sdk } = await bothPaths(message('tools/list'), BOTH, { 'MCP-Protocol-Version': '1999-01-01' });
    expect(fast).toBeNull();
    expect(sdk.status).toBe(400);
  });
});
