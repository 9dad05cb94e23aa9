import type { APIRoute } from 'astro';
import { buildMcpServerCard } from '../../core/mcp/catalogue.ts';
import { BASE_URL } from '../../server/base-url.ts';

export const prerender = true;

/** The MCP server card: what the server offers, readable without connecting. */
export const GET: APIRoute = () => Response.json(buildMcpServerCard(BASE_URL));
