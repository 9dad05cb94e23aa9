// `node scripts/pr-events-summary.ts <base-ref>`: a Markdown table of the events a pull request adds, changes
// or removes (for the CI job summary), read from `git diff` against the base.
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { eventsDirectory } from '../src/node/events-directory.ts';

const base = process.argv[2] ?? 'origin/main';
const root = eventsDirectory();
const diff = execFileSync('git', ['diff', '--name-status', '--no-renames', `${base}...HEAD`, '--', root], {
  encoding: 'utf8',
});
const STATUS: Record<string, string> = { A: 'added', M: 'changed', D: 'removed' };
const cell = (text: unknown) =>
  String(text ?? '')
    .replace(/\|/g, '\\|')
    .replace(/\r?\n/g, ' ');

const rows: string[] = [];
for (const line of diff.split('\n').filter(Boolean)) {
  const [status = '', file = ''] = line.split('\t');
  if (!file.endsWith('.json')) continue;
  if (status === 'D') {
    rows.push(`| removed | ${cell(file)} | | | | | |`);
    continue;
  }
  let event: Record<string, unknown> = {};
  try {
    event = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  } catch {
    rows.push(`| ${STATUS[status] ?? status} | ${cell(file)} | (not valid JSON) | | | | |`);
    continue;
  }
  rows.push(
    `| ${STATUS[status] ?? status} | ${cell(event['id'])} | ${cell(event['provider'])} | ${cell(event['kind'])} | ${cell(event['announcedAt'])} | ${event['verified'] === true ? 'yes' : 'draft'} | ${cell(event['sourceUrl'])} |`,
  );
}
console.log('### Events in this pull request\n');
console.log(
  rows.length === 0
    ? 'No event files are added, changed or removed.'
    : [
        '| change | id | provider | kind | announced | verified | original post |',
        '| --- | --- | --- | --- | --- | --- | --- |',
        ...rows,
      ].join('\n'),
);
