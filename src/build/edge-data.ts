import { env } from 'cloudflare:workers';
import { loadDataset } from '../../functions/data-source.ts';
import type { BoardDataset } from '../core/dataset.ts';

/** The published events for an on-demand page, from the same data asset the API reads. */
export const pageDataset = (url: URL): Promise<BoardDataset> => loadDataset(env.ASSETS, url.origin);

/** On-demand pages that show the board are cached at the edge like GET /api/status. */
export const BOARD_PAGE_CACHE = 'public, s-maxage=60, stale-while-revalidate=300';
