// The cost of the build's provenance pass (one `git log` over the event tree) on a synthetic history:
// events added in commits of 50, half of each batch as drafts verified by the next commit, made in one
// `git fast-import` stream. Run alone with `node scripts/bench/provenance.ts [--sizes 10000]`; `npm run bench`
// prints the same table.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { serializeEventFile } from '../../src/core/content/new-event.ts';
import { parseEventLog } from '../../src/core/git-event-log.ts';
import { provenanceByEventId } from '../../src/core/provenance.ts';
import type { Event } from '../../src/core/schemas.ts';
import { readEventLogText, readProvenance } from '../../src/node/provenance.ts';
import { syntheticEvents } from './synthetic-events.ts';

const BATCH = 50;

function runGit(args: string[], cwd: string, input?: string): Promise<void> {
  const child = spawn('git', args, { cwd, stdio: [input === undefined ? 'ignore' : 'pipe', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  if (input !== undefined) child.stdin?.end(input);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`git ${args[0]} failed (${code}): ${errors}`)),
    );
  });
}

/** A fast-import stream: per batch, one commit adding the events (drafts unverified) and one verifying them. */
function historyStream(events: Event[], start: number): { stream: string; commits: number } {
  const parts: string[] = [];
  let commits = 0;
  let time = start;
  const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  const commit = (message: string, files: Event[]) => {
    commits += 1;
    time += 600;
    parts.push(`commit refs/heads/main\ncommitter Bench <bench@example.org> ${time} +0000\n${data(message)}`);
    for (const event of files)
      parts.push(
        `M 100644 inline content/events/${event.provider}/${event.id}.json\n${data(serializeEventFile(event))}`,
      );
    parts.push('\n');
  };
  for (let first = 0; first < events.length; first += BATCH) {
    const batch = events.slice(first, first + BATCH);
    // Every other event of the batch arrives as a draft; the published ones are verified in the next commit.
    const arriving = batch.map((event, index) => (index % 2 === 0 ? event : { ...event, verified: false }));
    commit(`Add events ${first}–${first + batch.length - 1}`, arriving);
    const verifying = batch.filter((event, index) => index % 2 === 1 && event.verified);
    if (verifying.length > 0) commit(`Verify events ${first}–${first + batch.length - 1}`, verifying);
  }
  return { stream: parts.join(''), commits };
}

export async function provenanceSection(sizes: number[]): Promise<string> {
  const rows: string[] = [];
  for (const size of sizes) {
    const repo = await mkdtemp(path.join(os.tmpdir(), `departures-board-provenance-${size}-`));
    try {
      const events = syntheticEvents(size, new Date());
      await runGit(['init', '--quiet', '--initial-branch=main'], repo);
      const { stream, commits } = historyStream(events, Math.floor(Date.now() / 1000) - 86_400 * 30);
      await runGit(['fast-import', '--quiet'], repo, stream);
      await runGit(['checkout', '--quiet', 'main'], repo);
      const eventsDir = path.join(repo, 'content/events');

      const totalStart = performance.now();
      const provenance = await readProvenance({ eventsDir, events, repositoryUrl: 'https://code.example/owner/board' });
      const totalMs = performance.now() - totalStart;
      // The same pass in its three steps: git itself, reading its output, folding it into provenance.
      const gitStart = performance.now();
      const text = (await readEventLogText(eventsDir)) ?? '';
      const gitMs = performance.now() - gitStart;
      const parseStart = performance.now();
      const history = parseEventLog(text);
      const parseMs = performance.now() - parseStart;
      const foldStart = performance.now();
      provenanceByEventId(events, history, null);
      const foldMs = performance.now() - foldStart;

      const verified = [...provenance.values()].filter((value) => value.verifiedAt !== null).length;
      const expectedVerified = events.filter((event) => event.verified).length;
      if (verified !== expectedVerified || history.length !== commits) {
        throw new Error(
          `the pass disagrees with the history it was given: ${verified} verified of ${expectedVerified}, ${history.length} commits of ${commits}`,
        );
      }
      const mib = (Buffer.byteLength(text) / 2 ** 20).toFixed(1);
      rows.push(
        `| ${size.toLocaleString('en')} | ${commits} | ${mib} | ${totalMs.toFixed(0)} | ${gitMs.toFixed(0)} | ${parseMs.toFixed(0)} | ${foldMs.toFixed(0)} |`,
      );
    } finally {
      await rm(repo, { recursive: true, force: true });
    }
  }
  return [
    '### Provenance pass (one git log over the event tree, synthetic history)',
    '',
    '| events | commits | git log output MiB | whole pass ms | git log ms | parse ms | fold ms |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { sizes: { type: 'string', default: '10000' } } });
  console.log(await provenanceSection(values.sizes.split(',').map(Number)));
}
