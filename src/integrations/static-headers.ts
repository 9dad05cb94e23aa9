import { appendFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { PAGE_SECURITY_HEADERS } from '../../functions/http/security-headers.ts';

/**
 * Writes the `_headers` rules for the files the platform serves without the worker (the adapter writes the
 * file first, with its rule for /_astro/*): CORS and the security headers on everything, caching for the
 * documents that change only with a deploy or a build.
 */
const RULES: Record<string, Record<string, string>> = {
  '/*': { 'Access-Control-Allow-Origin': '*', ...PAGE_SECURITY_HEADERS },
  '/openapi.json': { 'Cache-Control': 'public, max-age=300, s-maxage=3600' },
  '/.well-known/mcp.json': { 'Cache-Control': 'public, max-age=300, s-maxage=3600' },
  '/llms.txt': { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=300, s-maxage=3600' },
  '/data/*': { 'Cache-Control': 'public, max-age=60, s-maxage=60' },
};

export const renderHeadersFile = (): string =>
  Object.entries(RULES)
    .map(
      ([path, headers]) =>
        `${path}\n${Object.entries(headers)
          .map(([name, value]) => `  ${name}: ${value}`)
          .join('\n')}\n`,
    )
    .join('\n');

export function staticHeaders(): AstroIntegration {
  let clientDir: URL | undefined;
  return {
    name: 'departures-board:static-headers',
    hooks: {
      'astro:config:done': ({ config }) => {
        clientDir = config.build.client;
      },
      'astro:build:done': async () => {
        if (clientDir === undefined) return;
        await appendFile(fileURLToPath(new URL('_headers', clientDir)), `\n${renderHeadersFile()}`);
      },
    },
  };
}
