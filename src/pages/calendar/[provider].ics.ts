import type { APIRoute, GetStaticPaths } from 'astro';
import { BASE_URL } from '../../../functions/site.ts';
import { deriveBoard } from '../../core/board.ts';
import { renderAnnouncementCalendar } from '../../core/render/announcement-calendar.ts';
import { PROVIDERS, type Provider } from '../../core/vocabulary.ts';
import { buildTimeEvents } from '../../build/dataset.ts';

export const prerender = true;

export const getStaticPaths = (() => PROVIDERS.map((provider) => ({ params: { provider } }))) satisfies GetStaticPaths;

/** One provider's subscribable calendar, served for /calendar.ics?provider=<provider> (and at this path). */
export const GET: APIRoute = async ({ params }) => {
  const { events, builtAt } = await buildTimeEvents();
  const board = deriveBoard(events, new Date(builtAt));
  return new Response(
    renderAnnouncementCalendar({ events, board, provider: params['provider'] as Provider, baseUrl: BASE_URL }),
  );
};
