import type { RouteInput } from '../src/core/routes/route.ts';
import type { EdgeRouteId, EdgeRouteOf } from '../src/core/routes/table.ts';
import type { EdgeContext } from '../src/server/context.ts';

/**
 * A route's handler: called only with a method the route table allows (HEAD as GET), and with the path
 * parameters and query its entry's schemas produced (src/core/routes/input.ts), typed by that entry.
 */
export type RouteHandler<Route> = (context: EdgeContext, input: RouteInput<Route>) => Promise<Response> | Response;

/** One handler per edge route of the table. Each module of functions/api offers its routes' as a part of this. */
export type EdgeHandlers = { readonly [Id in EdgeRouteId]: RouteHandler<EdgeRouteOf<Id>> };
