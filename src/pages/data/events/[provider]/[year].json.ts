import type { APIRoute, GetStaticPaths } from 'astro';
import { historyFiles } from '../../../../core/dataset.ts';
import { buildTimeEvents } from '../../../../build/dataset.ts';

export const prerender = true;

/** One provider's published events of one year, newest first. */
export const getStaticPaths = (async () =>
  historyFiles(await buildTimeEvents()).map(({ provider, year, file }) => ({
    params: { provider, year: String(year) },
    props: { file },
  }))) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) => Response.json(props['file']);
