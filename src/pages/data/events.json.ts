import type { APIRoute } from 'astro';
import { getCollection } from 'astro:content';
import { buildDataset } from '../../core/dataset.ts';

export const prerender = true;

export const GET: APIRoute = async () => {
  const entries = await getCollection('events');
  const dataset = buildDataset(entries.map((entry) => entry.data), new Date());
  return new Response(JSON.stringify(dataset), { headers: { 'Content-Type': 'application/json' } });
};
