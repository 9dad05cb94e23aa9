import { spawn } from 'node:child_process';
import path from 'node:path';
import {
  buildSourceReport,
  SOURCE_HEALTH_BINDING,
  SOURCE_REPORT_KEY,
  type SourceCheck,
  type SourceReport,
  storedSourceReport,
} from '../core/sources.ts';
import { LOCAL_STATE_DIR } from './local-state.ts';

/**
 * Writes a watch run's source report to the Workers KV key the site reads (`GET /api/sources`):
 * - `local`: the local KV that `npm start` serves (`wrangler kv key put --local --persist-to <LOCAL_STATE_DIR>`),
 * - `remote`: the deployed namespace (`--remote`; the watch workflow, with Cloudflare credentials),
 * - `off`: not written (a test of the watcher that does not want a wrangler process per run).
 * The default comes from `SOURCE_REPORT_TARGET` (local when unset); the local folder from
 * `SOURCE_REPORT_PERSIST_TO` (a test serving its own state folder). wrangler runs as `node <its JS entry>`
 * with this Node, without a shell, the report passed as one argument.
 */

const projectRoot = path.resolve(import.meta.dirname, '../..');
const WRANGLER = path.join(projectRoot, 'node_modules/wrangler/bin/wrangler.js');
/** The project's configuration, where the SOURCE_HEALTH binding and its namespace id are declared. */
export const PROJECT_WRANGLER_CONFIG = path.join(projectRoot, 'wrangler.jsonc');

export const SOURCE_REPORT_TARGETS = ['local', 'remote', 'off'] as const;
export type SourceReportTarget = (typeof SOURCE_REPORT_TARGETS)[number];

export interface WriteSourceReportOptions {
  /** When the run finished: the report's `checkedAt`. */
  finishedAt?: Date;
  target?: SourceReportTarget;
  /** The local state folder (local target only). */
  persistTo?: string;
  configPath?: string;
}

export function sourceReportTargetFromEnvironment(value = process.env.SOURCE_REPORT_TARGET): SourceReportTarget {
  if (value === undefined || value === '') return 'local';
  if ((SOURCE_REPORT_TARGETS as readonly string[]).includes(value)) return value as SourceReportTarget;
  throw new Error(`SOURCE_REPORT_TARGET must be one of ${SOURCE_REPORT_TARGETS.join(', ')}, not "${value}"`);
}

/** The wrangler arguments that store `report` under the source-health key. */
export function kvPutArguments(
  report: SourceReport,
  target: Exclude<SourceReportTarget, 'off'>,
  persistTo: string,
  configPath: string,
): string[] {
  const args = [
    WRANGLER,
    'kv',
    'key',
    'put',
    SOURCE_REPORT_KEY,
    storedSourceReport(report),
    `--binding=${SOURCE_HEALTH_BINDING}`,
    '--config',
    configPath,
  ];
  return target === 'local' ? [...args, '--local', '--persist-to', persistTo] : [...args, '--remote'];
}

/** Builds the report of a run from its per-source results and writes it; resolves with what was written. */
export async function writeSourceReport(
  results: readonly SourceCheck[],
  options: WriteSourceReportOptions = {},
): Promise<SourceReport> {
  const report = buildSourceReport(results, options.finishedAt ?? new Date());
  const target = options.target ?? sourceReportTargetFromEnvironment();
  if (target === 'off') return report;
  const persistTo = options.persistTo ?? (process.env.SOURCE_REPORT_PERSIST_TO || LOCAL_STATE_DIR);
  const args = kvPutArguments(report, target, persistTo, options.configPath ?? PROJECT_WRANGLER_CONFIG);
  const child = spawn(process.execPath, args, {
    cwd: projectRoot,
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`wrangler kv key put (${target}) failed with code ${code}:\n${output}`)),
    );
  });
  return report;
}
