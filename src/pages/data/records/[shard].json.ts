import type { APIRoute, GetStaticPaths } from 'astro';
import { RECORD_SHARD_COUNT, recordShardPath } from '../../../core/event-records.ts';
import { prerenderedResponse } from '../../../build/prerendered.ts';

export const prerender = true;

/** The shard's two hex digits, as in its path (`/data/records/0a.json`). */
const shardName = (shard: number) => recordShardPath(shard).slice('/data/records/'.length, -'.json'.length);

export const getStaticPaths = (() =>
  Array.from({ length: RECORD_SHARD_COUNT }, (_, shard) => ({
    params: { shard: shardName(shard) },
    props: { path: recordShardPath(shard) },
  }))) satisfies GetStaticPaths;

/** One shard of the events' records (event, page, provenance), stamped; GET /api/events/<id> reads it. */
export const GET: APIRoute = ({ props }) => prerenderedResponse((props as { path: string }).path);
