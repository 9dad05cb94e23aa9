import type { APIRoute } from 'astro';
import { recordMcpAnswers } from '../../../functions/mcp/recorded-answers.ts';
import { SERVES_SAMPLE_DATA } from '../../server/sample-data.ts';

export const prerender = true;

/** The SDK's answers to `initialize` and `tools/list` for this build (src/core/mcp/recorded-answers.ts). */
export const GET: APIRoute = async () => Response.json(await recordMcpAnswers(SERVES_SAMPLE_DATA));
