// `npm run event:add`: writes a new draft event (verified: false). Every field can be a flag; the missing
// ones are asked for when a person is at the terminal. Refuses to overwrite an existing event.
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { buildDraftEvent, idFromPostUrl, type DraftInput } from '../src/core/content/new-event.ts';
import { formatContentProblem } from '../src/core/content/validate-event-files.ts';
import { EVENT_KINDS, PROVIDERS } from '../src/core/vocabulary.ts';
import { eventsDirectory } from '../src/node/events-directory.ts';
import { addDraft } from '../src/node/event-store.ts';

const FIELDS = {
  provider: { flag: 'provider', question: `Provider (${PROVIDERS.join(', ')})` },
  kind: { flag: 'kind', question: `Kind (${EVENT_KINDS.join(', ')})` },
  sourceUrl: { flag: 'url', question: 'Original post URL (https)' },
  sourceAccount: { flag: 'account', question: 'Account that posted' },
  summary: { flag: 'summary', question: 'Summary (an excerpt, at most 280 characters)' },
  announcedAt: { flag: 'announced', question: 'Announced at (ISO 8601 with offset, e.g. 2026-11-21T18:30:00+08:00)' },
} as const;

const { values } = parseArgs({
  options: {
    provider: { type: 'string' },
    kind: { type: 'string' },
    scope: { type: 'string' },
    url: { type: 'string' },
    account: { type: 'string' },
    summary: { type: 'string' },
    announced: { type: 'string' },
    effective: { type: 'string' },
    audience: { type: 'string' },
    id: { type: 'string' },
  },
});

const answers: Partial<Record<keyof typeof FIELDS, string>> = {};
const prompt = process.stdin.isTTY ? createInterface({ input: process.stdin, output: process.stdout }) : undefined;
for (const [field, { flag, question }] of Object.entries(FIELDS) as [
  keyof typeof FIELDS,
  (typeof FIELDS)[keyof typeof FIELDS],
][]) {
  const answer = values[flag] ?? (await prompt?.question(`${question}: `));
  if (answer) answers[field] = answer;
}
let { scope, effective, id } = values;
if (prompt) {
  scope ??= (await prompt.question('Scope (global or plan:<name>) [global]: ')) || undefined;
  effective ??= (await prompt.question('Effective at, if the post names a later time [none]: ')) || undefined;
  id ??=
    (await prompt.question(`Id [${idFromPostUrl(answers.sourceUrl ?? '') ?? 'derive from the URL'}]: `)) || undefined;
  prompt.close();
}

const missing = Object.entries(FIELDS)
  .filter(([field]) => !answers[field as keyof typeof FIELDS])
  .map(([, { flag }]) => `--${flag}`);
if (missing.length > 0) {
  console.error(`Missing: ${missing.join(', ')} (give them as flags, or run in a terminal to be asked).`);
  process.exit(2);
}

const input: DraftInput = {
  provider: answers.provider!,
  kind: answers.kind!,
  sourceUrl: answers.sourceUrl!,
  sourceAccount: answers.sourceAccount!,
  summary: answers.summary!,
  announcedAt: answers.announcedAt!,
  ...(scope ? { scope } : {}),
  ...(effective ? { effectiveAt: effective } : {}),
  ...(id ? { id } : {}),
  ...(values.audience
    ? {
        audience: values.audience
          .split(',')
          .map((entry) => entry.trim())
          .filter(Boolean),
      }
    : {}),
};
const draft = buildDraftEvent(input);
if (!draft.ok) {
  for (const problem of draft.problems) console.error(`${problem.field}: ${problem.message}`);
  process.exit(1);
}
const root = eventsDirectory();
const stored = await addDraft(root, draft.event);
if (!stored.ok) {
  for (const problem of stored.problems) console.error(formatContentProblem(problem, root));
  process.exit(1);
}
console.log(`Draft written: ${root}/${stored.file}\nCheck the post, then: npm run event:verify ${draft.event.id}`);
