import type { APIRoute } from 'astro';
import { renderLlmsTxt } from '../core/render/llms-txt.ts';
import { BASE_URL } from '../server/base-url.ts';

export const prerender = true;

export const GET: APIRoute = () => new Response(renderLlmsTxt(BASE_URL));
