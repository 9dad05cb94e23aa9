import type { APIRoute } from 'astro';
import { deriveBoard } from '../core/board.ts';
import { renderAnnouncementCalendar } from '../core/render/announcement-calendar.ts';
import { buildTimeEvents } from '../build/dataset.ts';
import { BASE_URL } from '../server/base-url.ts';

export const prerender = true;

/** Every provider, with the estimates as of the build; functions/api/calendars.ts answers ?provider=. */
export const GET: APIRoute = async () => {
  const { events, builtAt } = await buildTimeEvents();
  const board = deriveBoard(events, new Date(builtAt));
  return new Response(renderAnnouncementCalendar({ events, board, provider: undefined, baseUrl: BASE_URL }));
};
