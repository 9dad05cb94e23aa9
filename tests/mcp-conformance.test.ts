import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ownServer } from './support/served-site.ts';
import { scaled } from '../scripts/lib/load-scaled.ts';

/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`, its own CLI and checks) against the
 * served worker. Only the scenarios that apply to a stateless tools, resources and prompts server: the others call
 * the suite's reference tools and capabilities this server does not offer (docs/mcp.md, "The official conformance
 * suite"). A server of its own: the suite sends no client address, so its requests share one rate-limit bucket.
 */
const APPLICABLE_SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'resources-list', 'prompts-list'];

const require = createRequire(import.meta.url);
const packageJson = require.resolve('@modelcontextprotocol/conformance/package.json');
const { bin } = require(packageJson) as { bin: Record<string, string> };
const CONFORMANCE_CLI = path.join(path.dirname(packageJson), bin['conformance']!);

const server = ownServer();

describe('the official MCP conformance scenarios', () => {
  it.each(APPLICABLE_SCENARIOS)(
    '%s passes',
    async (scenario) => {
      const url = `${server().baseUrl}/mcp`;
      // The CLI's own Node (the project's), never the machine's through its `#!/usr/bin/env node` line.
      // A failing scenario exits 1: its report is read all the same, so that the assertion shows it.
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [CONFORMANCE_CLI, 'server', '--url', url, '--scenario', scenario],
        { timeout: scaled(60_000) },
      ).catch((error: { stdout?: string; message: string }) => ({ stdout: error.stdout ?? error.message }));
      const totals = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(stdout);
      expect(totals, stdout).not.toBeNull();
      const [, passed, total, failed, warnings] = totals!.map(Number);
      expect({ passed, failed, warnings }, stdout).toEqual({ passed: total, failed: 0, warnings: 0 });
      expect(total).toBeGreaterThan(0);
    },
    scaled(90_000),
  );
});
