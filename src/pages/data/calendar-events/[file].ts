import type { APIRoute, GetStaticPaths } from 'astro';
import { calendarEventsPath } from '../../../core/built-paths.ts';
import { PROVIDERS } from '../../../core/vocabulary.ts';
import { prerenderedResponse } from '../../../build/prerendered.ts';

export const prerender = true;

/**
 * The announcements of /calendar.ics and of each provider's calendar, without the calendar around them:
 * functions/api/calendars.ts writes the frame and the estimates at request time.
 */
export const getStaticPaths = (() =>
  [undefined, ...PROVIDERS].map((provider) => {
    const path = calendarEventsPath(provider);
    return { params: { file: path.slice(path.lastIndexOf('/') + 1) }, props: { path } };
  })) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) => prerenderedResponse((props as { path: string }).path);
