import type { APIRoute } from 'astro';
import { buildOpenApiDocument } from '../core/api/openapi.ts';
import { BASE_URL } from '../server/base-url.ts';

export const prerender = true;

export const GET: APIRoute = () => Response.json(buildOpenApiDocument(BASE_URL));
