import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { GIT_LOG_FORMAT, parseEventLog } from '../core/git-event-log.ts';
import {
  provenanceByEventId,
  UNKNOWN_PROVENANCE,
  type EventProvenance,
  type HistoryCommit,
} from '../core/provenance.ts';
import type { Event } from '../core/schemas.ts';

/**
 * Provenance of the published events from the git history of the event tree, at build time: one
 * `git log` pass over the whole tree (never one call per file), run without a shell and with no event id
 * among its arguments. Outside a git checkout, without git, or in a shallow clone (whose oldest commit
 * would claim to have added every file) the history is unknown and every field is null.
 */

/** Variables that would point git at another repository than the one around the event tree (set in hooks). */
export const REPOSITORY_LOCATING_VARIABLES = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_COMMON_DIR',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
];

/** Settings a user's configuration could change and the parser relies on. */
const PINNED_CONFIG = [
  'color.ui=never',
  'diff.noprefix=false',
  'diff.mnemonicPrefix=false',
  'core.quotePath=true',
  'log.showSignature=false',
  'diff.relative=false',
];

interface GitResult {
  code: number | null;
  stdout: string;
}

function git(cwd: string, args: string[]): Promise<GitResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, LC_ALL: 'C' };
  for (const name of REPOSITORY_LOCATING_VARIABLES) delete env[name];
  const fullArgs = [...PINNED_CONFIG.flatMap((setting) => ['-c', setting]), ...args];
  return new Promise((resolve) => {
    let child: ChildProcessByStdio<null, Readable, null>;
    try {
      child = spawn('git', fullArgs, { cwd, env, stdio: ['ignore', 'pipe', 'ignore'] });
    } catch {
      resolve({ code: null, stdout: '' });
      return;
    }
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', () => resolve({ code: null, stdout: '' }));
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(chunks).toString('utf8') }));
  });
}

/**
 * The text of the one `git log` pass over the event tree at `eventsDir` (see core/git-event-log.ts), or null
 * when the history is not known. Paths in the patch are relative to `eventsDir` (`<provider>/<id>.json`).
 */
export async function readEventLogText(eventsDir: string): Promise<string | null> {
  const shallow = await git(eventsDir, ['rev-parse', '--is-shallow-repository']);
  if (shallow.code !== 0 || shallow.stdout.trim() !== 'false') return null;
  const log = await git(eventsDir, [
    'log',
    '--reverse',
    '--first-parent',
    '--diff-merges=first-parent',
    '--no-renames',
    '--no-ext-diff',
    '--no-textconv',
    '--no-color',
    '--relative',
    '--src-prefix=a/',
    '--dst-prefix=b/',
    '--unified=0',
    '--patch',
    `--format=${GIT_LOG_FORMAT}`,
    '--',
    '.',
  ]);
  return log.code === 0 ? log.stdout : null;
}

/** The history of the event tree at `eventsDir`, oldest commit first, or null when it is not known. */
export async function readEventHistory(eventsDir: string): Promise<HistoryCommit[] | null> {
  const text = await readEventLogText(eventsDir);
  return text === null ? null : parseEventLog(text);
}

export interface ProvenanceOptions {
  eventsDir: string;
  events: readonly Pick<Event, 'id' | 'announcedAt'>[];
  /** `REPOSITORY_URL` (e.g. https://github.com/owner/repo): commits link to `<it>/commit/<sha>` when set. */
  repositoryUrl?: string | null;
}

/** Provenance per event id; every field null when the history is unknown. */
export async function readProvenance({
  eventsDir,
  events,
  repositoryUrl = process.env.REPOSITORY_URL || null,
}: ProvenanceOptions): Promise<Map<string, EventProvenance>> {
  const history = await readEventHistory(eventsDir);
  if (history === null) return new Map(events.map((event) => [event.id, UNKNOWN_PROVENANCE]));
  return provenanceByEventId(events, history, repositoryUrl);
}
