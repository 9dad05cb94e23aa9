import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  type JSONRPCMessage,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import type { RecordedMcpAnswers } from '../../src/core/mcp/recorded-answers.ts';
import { createBoardMcpServer } from './server.ts';

/**
 * The SDK's own answers to the requests that depend on nothing but the build (`initialize`, `tools/list`),
 * recorded when the site is built (src/pages/data/mcp-answers.json.ts) by asking the board's server over the
 * SDK's in-memory transport: the common requests' path (common-requests.ts) answers them from this file, so that
 * the first MCP request of an isolate does not pay for loading the SDK (docs/mcp.md, "Two paths, one answer").
 */
export async function recordMcpAnswers(sampleData: boolean): Promise<RecordedMcpAnswers> {
  const notRead = () => Promise.reject(new Error('initialize and tools/list read no data'));
  const server: McpServer = createBoardMcpServer({ now: new Date(), summaries: notRead, dataset: notRead }, sampleData);
  const [ours, theirs] = InMemoryTransport.createLinkedPair();
  const answers = new Map<string | number, unknown>();
  ours.onmessage = (message: JSONRPCMessage) => {
    if ('id' in message && 'result' in message) answers.set(message.id, message.result);
  };
  await server.connect(theirs);
  await ours.start();
  const ask = async (id: number, method: string, params?: Record<string, unknown>) => {
    await ours.send({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
    // The in-memory transport delivers on a later turn: wait for the answer without a timer of its own.
    for (let turn = 0; !answers.has(id) && turn < 1000; turn += 1) await new Promise((done) => setTimeout(done, 0));
    const result = answers.get(id);
    if (result === undefined) throw new Error(`the SDK did not answer ${method}`);
    return result as Record<string, unknown>;
  };
  const initialize = await ask(1, 'initialize', {
    protocolVersion: LATEST_PROTOCOL_VERSION,
    capabilities: {},
    clientInfo: { name: 'departures-board-build', version: '1' },
  });
  const toolsList = await ask(2, 'tools/list');
  await server.close();
  return {
    protocolVersions: { latest: LATEST_PROTOCOL_VERSION, supported: [...SUPPORTED_PROTOCOL_VERSIONS] },
    initialize,
    toolsList,
  };
}
