// `npm run event:add`: writes a new draft event (verified: false). Every field can be a flag. When a
// required one is missing, the command asks for it and for the optional ones not given, one line each, from
// the terminal or from piped input; each answer is checked at once and asked again until it is right.
// Ctrl-C or Ctrl-D (the end of input) stops it without writing anything, with exit code 130.
// Refuses to overwrite an existing event.
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import {
  checkAccount,
  checkAnnouncedAt,
  checkAudience,
  checkEffectiveAt,
  checkId,
  checkKind,
  checkProvider,
  checkScope,
  checkSourceUrl,
  checkSummary,
  type AnswerCheck,
} from '../src/core/contributor/answers.ts';
import { buildDraftEvent, idFromPostUrl, type DraftInput } from '../src/core/content/new-event.ts';
import { formatContentProblem } from '../src/core/content/validate-event-files.ts';
import { EVENT_KINDS, PROVIDERS } from '../src/core/vocabulary.ts';
import { eventsDirectory } from '../src/node/events-directory.ts';
import { addDraft } from '../src/node/event-store.ts';

/** The exit code of a command stopped by the person at the terminal (128 + SIGINT), by Ctrl-C or Ctrl-D. */
const STOPPED = 130;

interface Question {
  field: string;
  flag: string;
  question: string;
  required: boolean;
  /** Checks one answer as it is given, with the answers given before it (the effective time follows the announced). */
  check: (answer: string, earlier: Readonly<Record<string, string>>) => AnswerCheck;
}

const QUESTIONS: Question[] = [
  {
    field: 'provider',
    flag: 'provider',
    question: `Provider (${PROVIDERS.join(', ')})`,
    required: true,
    check: checkProvider,
  },
  { field: 'kind', flag: 'kind', question: `Kind (${EVENT_KINDS.join(', ')})`, required: true, check: checkKind },
  { field: 'sourceUrl', flag: 'url', question: 'Original post URL (https)', required: true, check: checkSourceUrl },
  { field: 'sourceAccount', flag: 'account', question: 'Account that posted', required: true, check: checkAccount },
  {
    field: 'summary',
    flag: 'summary',
    question: 'Summary (an excerpt, at most 280 characters)',
    required: true,
    check: checkSummary,
  },
  {
    field: 'announcedAt',
    flag: 'announced',
    question: 'Announced at (ISO 8601 with offset, e.g. 2026-11-21T18:30:00+08:00)',
    required: true,
    // The clock as the answer is given: a post cannot have been published later than now.
    check: (answer) => checkAnnouncedAt(answer, new Date()),
  },
  {
    field: 'scope',
    flag: 'scope',
    question: 'Scope (global or plan:<name>) [global]',
    required: false,
    check: checkScope,
  },
  {
    field: 'effectiveAt',
    flag: 'effective',
    question: 'Effective at, if the post names a later time [none]',
    required: false,
    check: (answer, earlier) => checkEffectiveAt(answer, earlier.announcedAt),
  },
  {
    field: 'audience',
    flag: 'audience',
    question: 'Audience: who the post addresses, comma-separated (e.g. pro, team) [none]',
    required: false,
    check: (answer) => {
      const checked = checkAudience(answer);
      return checked.ok ? { ok: true, value: answer } : checked;
    },
  },
  { field: 'id', flag: 'id', question: 'Id', required: false, check: checkId },
];

function readFlags(): Record<string, string | boolean | undefined> {
  try {
    return parseArgs({ options: Object.fromEntries(QUESTIONS.map(({ flag }) => [flag, { type: 'string' as const }])) })
      .values;
  } catch (error) {
    console.error(`${(error as Error).message}\nFlags: ${QUESTIONS.map(({ flag }) => `--${flag}`).join(' ')}`);
    process.exit(2);
  }
}
const values = readFlags();
const flagValue = (flag: string): string | undefined => {
  const value = values[flag];
  return typeof value === 'string' ? value : undefined;
};

function stop(reason: string): never {
  process.stderr.write(`\n${reason}: nothing was written.\n`);
  process.exit(STOPPED);
}
// Piped input, or a terminal not in raw mode: Ctrl-C reaches the process as SIGINT.
process.on('SIGINT', () => stop('Stopped (Ctrl-C)'));

// Flags are checked first, all at once: a wrong flag is an error to fix in the command, not a question.
const answers: Record<string, string> = {};
const flagProblems: string[] = [];
for (const { field, flag, check } of QUESTIONS) {
  const given = flagValue(flag);
  if (given === undefined) continue;
  const checked = check(given, answers);
  if (checked.ok) answers[field] = checked.value;
  else flagProblems.push(`${field}: ${checked.message}`);
}
if (flagProblems.length > 0) {
  for (const problem of flagProblems) console.error(problem);
  process.exit(1);
}

const missingRequired = QUESTIONS.filter(({ field, required }) => required && answers[field] === undefined);
if (missingRequired.length > 0) {
  // Lines are read through the async iterator, which keeps piped lines that arrive before their question.
  const terminal = createInterface({
    input: process.stdin,
    output: process.stdout,
    terminal: process.stdin.isTTY === true,
  });
  // In a terminal, readline takes Ctrl-C itself and reports it here instead of as a signal.
  terminal.on('SIGINT', () => stop('Stopped (Ctrl-C)'));
  const lines = terminal[Symbol.asyncIterator]();
  for (const { field, question, required, check } of QUESTIONS.filter(({ flag }) => flagValue(flag) === undefined)) {
    for (;;) {
      const hint =
        field === 'id'
          ? ` [${idFromPostUrl(answers.sourceUrl ?? '') ?? 'none can be derived from the URL: give one'}]`
          : '';
      process.stdout.write(`${question}${hint}: `);
      const next = await lines.next();
      if (next.done === true) {
        const stillMissing = missingRequired
          .filter((entry) => answers[entry.field] === undefined)
          .map((entry) => `--${entry.flag}`);
        stop(`Input ended (Ctrl-D)${stillMissing.length > 0 ? ` before ${stillMissing.join(', ')} was answered` : ''}`);
      }
      const answer = String(next.value).trim();
      if (answer === '' && !required) break;
      const checked = check(answer, answers);
      if (checked.ok) {
        answers[field] = checked.value;
        break;
      }
      process.stderr.write(`  ${field} ${checked.message}. Try again.\n`);
    }
  }
  terminal.close();
}

const audience = answers.audience === undefined ? undefined : checkAudience(answers.audience);
const input: DraftInput = {
  provider: answers.provider!,
  kind: answers.kind!,
  sourceUrl: answers.sourceUrl!,
  sourceAccount: answers.sourceAccount!,
  summary: answers.summary!,
  announcedAt: answers.announcedAt!,
  ...(answers.scope ? { scope: answers.scope } : {}),
  ...(answers.effectiveAt ? { effectiveAt: answers.effectiveAt } : {}),
  ...(answers.id ? { id: answers.id } : {}),
  ...(audience?.ok ? { audience: audience.value } : {}),
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
