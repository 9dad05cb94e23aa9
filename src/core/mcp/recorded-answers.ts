/**
 * The SDK's answers recorded at build time (functions/mcp/recorded-answers.ts writes them to `MCP_ANSWERS_PATH`):
 * what `initialize` and `tools/list` answer depends on the build alone, so the worker reads them instead of
 * loading the SDK to compute them again (docs/mcp.md, "Two paths, one answer").
 */
export const MCP_ANSWERS_PATH = '/data/mcp-answers.json';

export interface RecordedMcpAnswers {
  protocolVersions: { latest: string; supported: string[] };
  /** The result for the latest protocol version; another supported version changes `protocolVersion` only. */
  initialize: Record<string, unknown>;
  toolsList: Record<string, unknown>;
}

/** The file's frame, checked on read (the build wrote it; a stale or foreign file sends every request to the SDK). */
export function isRecordedMcpAnswers(value: unknown): value is RecordedMcpAnswers {
  if (typeof value !== 'object' || value === null) return false;
  const { protocolVersions, initialize, toolsList } = value as Partial<Record<keyof RecordedMcpAnswers, unknown>>;
  const versions = protocolVersions as Partial<RecordedMcpAnswers['protocolVersions']> | undefined;
  return (
    typeof versions?.latest === 'string' &&
    Array.isArray(versions.supported) &&
    typeof initialize === 'object' &&
    initialize !== null &&
    typeof toolsList === 'object' &&
    toolsList !== null
  );
}
