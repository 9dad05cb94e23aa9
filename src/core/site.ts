import type { Event } from './schemas.ts';

/** Names of the service and the one place that builds an event's permanent address. */

export const SERVICE_NAME = 'Departures Board';
/** Used where a machine reads the name: ICS PRODID and UID prefix, MCP serverInfo, file names. */
export const SERVICE_MACHINE_NAME = 'departures-board';
export const API_VERSION = '1.0.0';

/** `{base_url}/<provider>#event-<id>`: the permanent anchor of an event on its provider's page. */
export const eventPageUrl = (baseUrl: string, event: Pick<Event, 'provider' | 'id'>): string =>
  `${baseUrl}/${event.provider}#event-${event.id}`;
