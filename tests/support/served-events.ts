import { execFileSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { projectRoot } from '../../scripts/lib/tools.ts';
import type { Event } from '../../src/core/schemas.ts';
import { REPOSITORY_LOCATING_VARIABLES } from '../../src/node/provenance.ts';

/**
 * The event tree the served tests build and serve, made from a template relative to the run's clock, so that
 * `npm test` passes whatever events a deployment keeps in content/events and on whatever day it runs.
 *
 * The template (`tests/fixtures/served/events`, a copy of the sample set, with its marker) describes the board at
 * `SERVED_TEMPLATE_NOW`: Provider A waiting, Provider B overdue beyond its history, Provider C with a live tease
 * three days ahead. `materializeServedEvents(now)` moves every time in it by `now − SERVED_TEMPLATE_NOW`, so the
 * tree means at `now` exactly what the template means at its moment (tests/node/served-fixture.test.ts shows it
 * at clocks months apart), and commits the files to a git repository of its own, each a while after its post,
 * so that the build finds a provenance for every event (docs/testing.md, "How a test gets now").
 */

export const SERVED_TEMPLATE_DIR = path.join(projectRoot, 'tests/fixtures/served/events');
/** The moment the template describes. */
export const SERVED_TEMPLATE_NOW = new Date('2026-11-21T12:00:00.000Z');
/** How long after its post each event file is committed in the made repository. */
export const SERVED_RECORDING_LAG_MINUTES = 25;

const MINUTE = 60_000;

/** `time` moved by `shift` milliseconds, in the event schema's form (ISO 8601 UTC with milliseconds). */
const moved = (time: string, shift: number) => new Date(Date.parse(time) + shift).toISOString();

/** The template's events, each with its path inside the tree. */
async function templateEvents(): Promise<{ file: string; event: Event }[]> {
  const files: { file: string; event: Event }[] = [];
  for (const provider of (await readdir(SERVED_TEMPLATE_DIR)).sort()) {
    for (const name of (await readdir(path.join(SERVED_TEMPLATE_DIR, provider))).sort()) {
      const text = await readFile(path.join(SERVED_TEMPLATE_DIR, provider, name), 'utf8');
      files.push({ file: `${provider}/${name}`, event: JSON.parse(text) as Event });
    }
  }
  return files;
}

function git(repository: string, args: string[], date?: string): void {
  const env: NodeJS.ProcessEnv = { ...process.env, LC_ALL: 'C' };
  for (const name of REPOSITORY_LOCATING_VARIABLES) delete env[name];
  Object.assign(env, { GIT_AUTHOR_NAME: 'Fixture', GIT_AUTHOR_EMAIL: 'fixture@departures-board.invalid' });
  Object.assign(env, { GIT_COMMITTER_NAME: 'Fixture', GIT_COMMITTER_EMAIL: 'fixture@departures-board.invalid' });
  if (date) Object.assign(env, { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date });
  execFileSync('git', ['-c', 'commit.gpgSign=false', ...args], { cwd: repository, env, stdio: 'ignore' });
}

export interface ServedEvents {
  /** The events folder (EVENTS_DIR); its marker `dataset.json` sits beside it, as content/dataset.json does. */
  eventsDir: string;
  /** The clock the tree was made for. */
  now: Date;
}

/**
 * Writes the template moved to `now` as `<new temp folder>/events`, with its marker, in a git repository of its
 * own: one commit per event, `SERVED_RECORDING_LAG_MINUTES` after its post (never after `now`), oldest first.
 * With `history: false` the tree is written without git (a test that copies it into a repository of its own).
 */
export async function materializeServedEvents(
  now: Date = new Date(),
  { history = true }: { history?: boolean } = {},
): Promise<ServedEvents> {
  // Whole minutes: the template's seconds and milliseconds stay as they were written.
  const shift = Math.round((now.getTime() - SERVED_TEMPLATE_NOW.getTime()) / MINUTE) * MINUTE;
  const root = await mkdtemp(path.join(tmpdir(), 'departures-board-served-events-'));
  const eventsDir = path.join(root, 'events');
  await cp(path.join(path.dirname(SERVED_TEMPLATE_DIR), 'dataset.json'), path.join(root, 'dataset.json'));
  const events = (await templateEvents()).map(({ file, event }) => ({
    file,
    event: {
      ...event,
      announcedAt: moved(event.announcedAt, shift),
      effectiveAt: event.effectiveAt === null ? null : moved(event.effectiveAt, shift),
    },
  }));
  if (history) git(root, ['init', '--quiet', '--initial-branch=main']);
  events.sort((a, b) => Date.parse(a.event.announcedAt) - Date.parse(b.event.announcedAt));
  for (const { file, event } of events) {
    await mkdir(path.dirname(path.join(eventsDir, file)), { recursive: true });
    await writeFile(path.join(eventsDir, file), `${JSON.stringify(event, null, 2)}\n`);
    if (!history) continue;
    const recordedAt = Math.min(Date.parse(event.announcedAt) + SERVED_RECORDING_LAG_MINUTES * MINUTE, now.getTime());
    git(root, ['add', path.join('events', file)]);
    git(root, ['commit', '--quiet', '-m', `Add ${event.id}`], new Date(recordedAt).toISOString());
  }
  return { eventsDir, now };
}

/** Writes the served event tree for `now` (without its history) to `target`, e.g. a test's copy of content/events. */
export async function copyServedEvents(target: string, now: Date = new Date()): Promise<void> {
  const { eventsDir } = await materializeServedEvents(now, { history: false });
  await cp(eventsDir, target, { recursive: true });
  await rm(path.dirname(eventsDir), { recursive: true, force: true });
}
