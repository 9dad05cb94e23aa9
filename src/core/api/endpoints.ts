import { TRANSLATIONS } from '../i18n/index.ts';
import type { Locale } from '../enums.ts';
import type { Method } from '../routes/route.ts';
import { ROUTES, type ListedRouteId } from '../routes/table.ts';

/**
 * The machine-readable endpoints as listed to people and agents (Markdown mirrors, llms.txt, the API page):
 * the routes the table marks `listing`, in the table's order. The OpenAPI document describes each in full.
 */
export interface EndpointListing {
  path: string;
  method: Method;
  title: string;
  /** The same endpoint's other paths (the spec's aliases: /api/feed, /api/mcp). */
  aliases: string[];
}

export const endpointListings = (locale: Locale): EndpointListing[] =>
  ROUTES.flatMap((route) =>
    'listing' in route
      ? [
          {
            method: route.methods[0],
            path: ('example' in route.listing ? route.listing.example : undefined) ?? route.path,
            // Every listed route has its title in every language (a Markdown mirror's from languages.ts).
            title: TRANSLATIONS[locale].endpoints[route.id as ListedRouteId] ?? route.summary,
            aliases: ROUTES.filter((alias) => 'aliasOf' in alias && alias.aliasOf === route.id).map(
              (alias) => alias.path,
            ),
          },
        ]
      : [],
  );
