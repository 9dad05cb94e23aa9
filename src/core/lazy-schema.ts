import { z } from 'zod';

/**
 * A schema made on its first use, not as its module loads: for the schemas no request parses, which only the OpenAPI
 * document reads and the build checks its files with. Making a zod schema costs a few microseconds a part, and a new
 * isolate of the worker made some 400 parts that none of its requests read (docs/performance.md, "The cold start").
 * Not for a schema a request needs (MCP's tools list theirs): its first request would pay for it instead. It parses,
 * infers and turns into JSON Schema as the schema it wraps; `.unwrap()` gives that schema (its `.shape`, its
 * `.extend()`), and its id (`.meta({ id })`) is registered when it is made, which the OpenAPI document sees to
 * (src/core/api/openapi.ts).
 */
export function lazySchema<T extends z.ZodType>(make: () => T): z.ZodLazy<T> {
  // Made once: zod keeps what its own reads make, but `.unwrap()` calls the maker each time, and a second schema
  // with the same id is refused by the JSON Schema conversion.
  let schema: T | undefined;
  return z.lazy(() => (schema ??= make()));
}
