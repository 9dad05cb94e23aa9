import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { serializeEventFile } from '../core/content/new-event.ts';
import { validateEventFiles, type ContentProblem, type EventFile } from '../core/content/validate-event-files.ts';
import { EventSchema, type Event } from '../core/schemas.ts';
import { readEventFiles, readEventTree } from './event-files.ts';

/**
 * Writing event files: every change is checked against the whole tree with the content rules before it
 * touches the disk, and a new file never replaces an existing one.
 */

export type StoreResult = { ok: true; file: string } | { ok: false; problems: ContentProblem[] };

/** The message of a refused new file whose id is taken (the watcher treats such a post as recorded). */
export const ALREADY_EXISTS = 'an event with this id already exists; nothing was overwritten';

const relativeFile = (event: Pick<Event, 'provider' | 'id'>) => `${event.provider}/${event.id}.json`;

/** The tree as it would be with `file` changed: only that file's problems count against the change. */
async function checkChange(root: string, changed: EventFile, now: Date): Promise<ContentProblem[]> {
  const others = (await readEventFiles(root)).filter((file) => file.path !== changed.path);
  return validateEventFiles([...others, changed], now).problems.filter((problem) => problem.file === changed.path);
}

export async function addDraft(root: string, event: Event, now = new Date()): Promise<StoreResult> {
  const file = relativeFile(event);
  // A file the reader refuses (over 16 KiB, not UTF-8, a folder) exists all the same: it is never replaced.
  const tree = await readEventTree(root);
  if (
    tree.files.some((candidate) => candidate.path === file) ||
    tree.problems.some((problem) => problem.file === file)
  ) {
    return { ok: false, problems: [{ file, field: 'id', message: ALREADY_EXISTS }] };
  }
  const changed = { path: file, text: serializeEventFile(event) };
  const problems = await checkChange(root, changed, now);
  if (problems.length > 0) return { ok: false, problems };
  // A provider without events yet has no folder (git keeps no empty folders).
  await mkdir(path.join(root, event.provider), { recursive: true });
  await writeFile(path.join(root, file), changed.text, { flag: 'wx' });
  return { ok: true, file };
}

export async function verifyEvent(root: string, id: string, now = new Date()): Promise<StoreResult> {
  const file = (await readEventFiles(root)).find((candidate) => path.posix.basename(candidate.path) === `${id}.json`);
  if (file === undefined)
    return { ok: false, problems: [{ file: `*/${id}.json`, field: 'id', message: 'no event file has this id' }] };
  const parsed = EventSchema.safeParse(JSON.parse(file.text.replace(/^\uFEFF/, '')));
  if (!parsed.success)
    return {
      ok: false,
      problems: [{ file: file.path, field: null, message: 'is not a valid event; run npm run validate' }],
    };
  const changed = { path: file.path, text: serializeEventFile({ ...parsed.data, verified: true }) };
  const problems = await checkChange(root, changed, now);
  if (problems.length > 0) return { ok: false, problems };
  await writeFile(path.join(root, file.path), changed.text);
  return { ok: true, file: file.path };
}
