import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { publishEvents } from '../../src/core/dataset.ts';
import { PRERENDERED_FILES } from '../../src/core/prerendered.ts';
import type { EventProvenance } from '../../src/core/provenance.ts';
import type { Event } from '../../src/core/schemas.ts';

/**
 * Built files and the bindings over them, for running the worker's code in this process (the in-process tests
 * and the CPU benchmark): a real build's `dist/client`, or the core's prerendered files made from a fixture.
 * The files are held in memory: the platform's asset server costs the worker no CPU, so neither may this.
 */

export type BuiltFiles = ReadonlyMap<string, Uint8Array<ArrayBuffer>>;

// Hashed once per file: the platform's asset server knows its files' ETags, and hashing a 550 KiB file on every
// fetch would count the asset server's work as the worker's in the CPU benchmark.
const etags = new WeakMap<Uint8Array, string>();
export function etagOf(bytes: Uint8Array): string {
  let etag = etags.get(bytes);
  if (etag === undefined) {
    etag = `"${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}"`;
    etags.set(bytes, etag);
  }
  return etag;
}

/** The static-assets binding over `files`: 200 with a strong ETag, 304 on a matching If-None-Match, else 404. */
export function assetsBinding(files: BuiltFiles): Fetcher {
  const fetchAsset = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const bytes = files.get(new URL(request.url).pathname);
    if (bytes === undefined) return new Response('Not Found', { status: 404 });
    const etag = etagOf(bytes);
    if (request.headers.get('If-None-Match') === etag)
      return new Response(null, { status: 304, headers: { ETag: etag } });
    return new Response(bytes, { headers: { ETag: etag, 'Cache-Control': 'public, max-age=0, must-revalidate' } });
  };
  return { fetch: fetchAsset } as unknown as Fetcher;
}

/** Every file of a built `dist/client`, keyed by its URL path. */
export async function readBuiltFiles(clientDir: string): Promise<BuiltFiles> {
  const files = new Map<string, Uint8Array<ArrayBuffer>>();
  for (const entry of await readdir(clientDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    files.set(`/${path.relative(clientDir, file).split(path.sep).join('/')}`, await readFile(file));
  }
  return files;
}

/**
 * The files a build of `events` at `builtAt` would give the edge, made by the core without Astro; `provenance`
 * stands for what the build's git pass found (none: every field null, as outside a git checkout).
 */
export function fixtureFiles(
  events: readonly Event[],
  builtAt: Date,
  baseUrl = 'http://localhost:4321',
  provenance: ReadonlyMap<string, EventProvenance> = new Map(),
): BuiltFiles {
  const input = { published: publishEvents(events, builtAt), baseUrl, buildId: 'fixture', provenance };
  const encoder = new TextEncoder();
  return new Map(Object.entries(PRERENDERED_FILES).map(([file, body]) => [file, encoder.encode(body(input))]));
}

/**
 * A stand-in for a Workers KV namespace in memory, for the in-process tests only (the served tests use the
 * real local KV in workerd): `get` as text, `put` and `delete`, the calls the handlers and tests make. A
 * `failing` one throws on every read, as a KV outage would.
 */
export function memoryKv(initial: Readonly<Record<string, string>> = {}, { failing = false } = {}): KVNamespace {
  const values = new Map(Object.entries(initial));
  const kv = {
    get: async (key: string) => {
      if (failing) throw new Error('KV GET failed: 503 Service Unavailable');
      return values.get(key) ?? null;
    },
    put: async (key: string, value: string) => {
      values.set(key, value);
    },
    delete: async (key: string) => {
      values.delete(key);
    },
  };
  return kv as unknown as KVNamespace;
}

/** A limiter that lets everything through: the real binding is exercised by the served suite in workerd. */
export const OPEN_RATE_LIMITER = { limit: async () => ({ success: true }) } as unknown as RateLimit;
