import type { APIRoute } from 'astro';
import { buildMcpServerCard } from '../../../core/mcp/catalogue.ts';
import { BASE_URL } from '../../../server/base-url.ts';

export const prerender = true;

/** The server card where the MCP server-card draft looks for it; the same body as /.well-known/mcp.json. */
export const GET: APIRoute = () => Response.json(buildMcpServerCard(BASE_URL));
