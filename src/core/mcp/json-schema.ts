import { z } from 'zod';

/**
 * The JSON Schemas MCP hosts read in tools/list: small, and readable by hosts that resolve no references.
 * - An input schema is self-contained: hosts that drop `$ref` or `allOf` would lose an enum's values, so every
 *   reference is inlined.
 * - An output schema keeps each named schema once, in `$defs` (inlining would repeat the event five times).
 * - Both leave out what only repeats itself at length: a `pattern` beside a `format`, examples, the integer
 *   bound 2^53 - 1 that zod writes for every `int()`, and `$schema` (MCP 2025-11-25 reads a schema without one
 *   as 2020-12).
 */

type JsonSchema = { [key: string]: unknown };
const REF_PREFIX = '#/$defs/';
const NOISE = new Set(['$schema', 'example', 'examples']);

function compact(node: unknown, defs: Readonly<Record<string, unknown>> | undefined, depth: number): unknown {
  if (Array.isArray(node)) return node.map((item) => compact(item, defs, depth));
  if (node === null || typeof node !== 'object') return node;
  const { $ref, ...rest } = node as JsonSchema;
  const target =
    defs !== undefined && typeof $ref === 'string' && $ref.startsWith(REF_PREFIX)
      ? defs[$ref.slice(REF_PREFIX.length)]
      : undefined;
  if (target !== undefined && depth > 16) throw new Error(`a recursive schema cannot be inlined: ${String($ref)}`);
  const merged: JsonSchema =
    target === undefined ? { ...(node as JsonSchema) } : { ...(target as JsonSchema), ...rest };
  const next = target === undefined ? depth : depth + 1;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(merged)) {
    if (NOISE.has(key) || (key === '$defs' && defs !== undefined)) continue;
    if (key === 'pattern' && typeof merged.format === 'string') continue;
    if (
      (key === 'maximum' && value === Number.MAX_SAFE_INTEGER) ||
      (key === 'minimum' && value === Number.MIN_SAFE_INTEGER)
    )
      continue;
    out[key] =
      (key === 'properties' || key === '$defs') && value !== null && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).map(([name, field]) => [name, compact(field, defs, next)]))
        : compact(value, defs, next);
  }
  return out;
}

/** A zod schema as one JSON Schema object for tools/list (`inline`: no `$ref` at all, for input schemas). */
export function compactJsonSchema(schema: z.ZodType, io: 'input' | 'output', inline: boolean): JsonSchema {
  const generated = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
  const allDefs = (generated.$defs ?? {}) as Record<string, unknown>;
  if (inline) return compact(generated, allDefs, 0) as JsonSchema;
  // MCP wants `type: object` at the top of an output schema: a named root schema is unfolded there.
  const rootName = typeof generated.$ref === 'string' ? generated.$ref.slice(REF_PREFIX.length) : undefined;
  if (rootName === undefined) return compact(generated, undefined, 0) as JsonSchema;
  const { [rootName]: root, ...otherDefs } = allDefs;
  return compact({ ...(root as JsonSchema), $defs: otherDefs }, undefined, 0) as JsonSchema;
}

/** Numbers as a tool result carries them: at most three decimals (a day to the minute and a half). */
export function roundNumbers<T>(value: T): T {
  if (typeof value === 'number') return (Number.isInteger(value) ? value : Math.round(value * 1000) / 1000) as T;
  if (Array.isArray(value)) return value.map(roundNumbers) as T;
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, roundNumbers(inner)])) as T;
  return value;
}
