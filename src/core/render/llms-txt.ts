import { SERVICE_NAME } from '../site.ts';

/** `/llms.txt`: where an agent finds the board in the forms made for it. */
export const renderLlmsTxt = (baseUrl: string): string =>
  [
    `# ${SERVICE_NAME}`,
    '',
    '> Official usage-limit reset announcements of three AI coding-tool providers (provider_a, provider_b, provider_c), each linked to its original post, with a status per provider and a cadence estimate of the next reset. The estimate is last reset + median gap of the last 10 resets: never a vendor schedule. Free, read-only, no key.',
    '',
    '## Read the board',
    '',
    `- [The board in Markdown, English](${baseUrl}/index.md): status, last reset and estimate per provider, the latest announcements, the endpoints`,
    `- [The board in Markdown, Chinese](${baseUrl}/zh/index.md)`,
    `- [Status JSON](${baseUrl}/api/status)`,
    '',
    '## Build on it',
    '',
    `- [OpenAPI 3.1 description](${baseUrl}/openapi.json): every endpoint, parameter and response`,
    `- [MCP server](${baseUrl}/mcp): JSON-RPC 2.0 over HTTP POST, tools get_status, get_timeline, get_next_estimate`,
    `- [RSS feed](${baseUrl}/feed.xml), [Atom](${baseUrl}/feed.atom), [JSON Feed](${baseUrl}/feed.json)`,
    '',
    '## Terms',
    '',
    '- Data as is, without warranty; not affiliated with the providers. Link back and keep each event’s sourceUrl when republishing.',
    '',
  ].join('\n');
