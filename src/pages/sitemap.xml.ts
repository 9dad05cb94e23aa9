import type { APIRoute } from 'astro';
import { renderSitemap } from '../core/render/sitemap.ts';
import { BASE_URL } from '../server/base-url.ts';

export const prerender = true;

export const GET: APIRoute = () => new Response(renderSitemap(BASE_URL));
