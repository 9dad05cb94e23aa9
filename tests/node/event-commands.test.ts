import { spawn, spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkEventTree } from '../../src/node/check-event-tree.ts';
import { copyServedEvents } from '../support/served-events.ts';
import { tempFolder } from '../support/temp-folders.ts';

/** npm run event:add and event:verify, run on a temporary copy of a fixture tree (never content/events). */

async function copyOfEvents() {
  const root = path.join(tempFolder('events'), 'events');
  await copyServedEvents(root);
  return root;
}

/**
 * The post's day: two days before the run (a post in the past on any date), as typed at the prompt in New York
 * (09:30 at UTC−5, a time of day that is the same in every month: New York is at −5 outside summer time, and
 * the offset is typed, not looked up) and as stored (14:30 UTC).
 */
const postDay = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
const TYPED_ANNOUNCED = `${postDay}T09:30:00-05:00`;
const STORED_ANNOUNCED = `${postDay}T14:30:00.000Z`;
const UTC_ANNOUNCED = `${postDay}T09:30:00Z`;
/**
 * Times a post cannot have: three days after the run (typed in New York, as above), and the run's own hour three
 * hours on, typed with Z (what a local time typed without its offset looks like).
 */
const laterDay = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
const TYPED_FUTURE = `${laterDay}T09:30:00-05:00`;
const STORED_FUTURE = `${laterDay}T14:30:00.000Z`;
const SOON = `${new Date(Date.now() + 3 * 3_600_000).toISOString().slice(0, 16)}:00Z`;
const run = (script: string, args: string[], eventsDir: string) =>
  spawnSync(process.execPath, [script, ...args], {
    env: { ...process.env, EVENTS_DIR: eventsDir },
    encoding: 'utf8',
    input: '',
  });

const ADD = [
  '--provider',
  'provider_b',
  '--kind',
  'reset',
  '--url',
  'https://social.provider-b.example/@providerb/113599999999999999',
  '--account',
  '@providerb',
  '--summary',
  'All usage limits have been reset, again.',
  '--announced',
  TYPED_ANNOUNCED,
  '--scope',
  'plan:team',
];

describe('npm run event:add', () => {
  it('writes a valid draft with the id from the URL and the time in UTC', async () => {
    const root = await copyOfEvents();
    const result = run('scripts/event-add.ts', ADD, root);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const written = JSON.parse(await readFile(path.join(root, 'provider_b/113599999999999999.json'), 'utf8'));
    expect(written).toMatchObject({
      id: '113599999999999999',
      announcedAt: STORED_ANNOUNCED,
      scope: 'plan:team',
      sourceAccount: 'providerb',
      verified: false,
    });
    expect((await checkEventTree(root)).problems).toEqual([]);
  });

  it('refuses control characters, a bidirectional override and U+FFFF with the messages npm run validate gives', async () => {
    const root = await copyOfEvents();
    const eventsBefore = (await checkEventTree(root)).events.length;
    const flags = [...ADD];
    flags[flags.indexOf('--account') + 1] = '@\u202Ebvredivorp';
    flags[flags.indexOf('--summary') + 1] = 'All usage limits\uFFFF have been reset.';
    flags.push('--audience', 'pro, te\u0007am');
    const refused = run('scripts/event-add.ts', flags, root);
    expect(refused.status).toBe(1);
    expect(refused.stderr.trim().split('\n')).toEqual([
      'sourceAccount: holds U+202E (a bidirectional embedding or override) at character 1, the first',
      'summary: holds U+FFFF (a noncharacter) at character 17, after "usage limits"',
      'audience: entry 2 holds U+0007 (a control character) at character 3, after "te"',
    ]);
    expect((await checkEventTree(root)).events).toHaveLength(eventsBefore);
  });

  it('refuses to overwrite an existing event', async () => {
    const root = await copyOfEvents();
    expect(run('scripts/event-add.ts', ADD, root).status).toBe(0);
    const before = await readFile(path.join(root, 'provider_b/113599999999999999.json'), 'utf8');
    const again = run(
      'scripts/event-add.ts',
      [...ADD.slice(0, -4), '--summary', 'changed', '--announced', UTC_ANNOUNCED],
      root,
    );
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/already exists; nothing was overwritten/);
    expect(await readFile(path.join(root, 'provider_b/113599999999999999.json'), 'utf8')).toBe(before);
  });

  it('names each bad or missing field and writes nothing', async () => {
    const root = await copyOfEvents();
    const eventsBefore = (await checkEventTree(root)).events.length;
    const bad = run(
      'scripts/event-add.ts',
      [
        '--provider',
        'provider_b',
        '--kind',
        'restart',
        '--url',
        'http://x.example/1',
        '--account',
        'a',
        '--summary',
        's',
        '--announced',
        UTC_ANNOUNCED,
      ],
      root,
    );
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/kind:/);
    expect(bad.stderr).toMatch(/sourceUrl:/);
    const missing = run('scripts/event-add.ts', ['--provider', 'provider_b'], root);
    expect(missing.status).toBe(130);
    expect(missing.stderr).toMatch(
      /before --kind, --url, --account, --summary, --announced was answered: nothing was written/,
    );
    const impossible = run('scripts/event-add.ts', [...ADD.slice(0, -4), '--announced', '2026-02-30T09:30:00Z'], root);
    expect(impossible.status).toBe(1);
    expect(impossible.stderr).toMatch(/announcedAt: is not a real date-time: .*February 2026 has 28 days/);
    expect((await checkEventTree(root)).events.length).toBe(eventsBefore);
  });
});

describe('npm run event:add, a time no post can have given as a flag', () => {
  it('refuses a future announcement before asking anything, naming how it read the time', async () => {
    const root = await copyOfEvents();
    const eventsBefore = (await checkEventTree(root)).events.length;
    const result = run('scripts/event-add.ts', [...ADD.slice(0, -4), '--announced', TYPED_FUTURE], root);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      new RegExp(`^announcedAt: is in the future \\(now is [^)]+\\); it reads as ${STORED_FUTURE}: check the time`),
    );
    const effective = run(
      'scripts/event-add.ts',
      [...ADD.slice(0, -4), '--announced', TYPED_ANNOUNCED, '--effective', STORED_ANNOUNCED],
      root,
    );
    expect(effective.status).toBe(1);
    expect(effective.stderr).toMatch(/^effectiveAt: must be later than announcedAt/);
    expect((await checkEventTree(root)).events.length).toBe(eventsBefore);
  });
});

describe('npm run event:add, answering questions', () => {
  // The real command, its answers piped to it one line each, as a person would type them.
  const ask = (answers: string[], root: string) =>
    spawnSync(process.execPath, ['scripts/event-add.ts'], {
      env: { ...process.env, EVENTS_DIR: root },
      encoding: 'utf8',
      input: answers.map((line) => `${line}\n`).join(''),
    });
  const noStackTrace = (stderr: string) => expect(stderr).not.toMatch(/^\s+at /m);

  it('checks each answer when it is given, asks again, asks for the audience, and writes the draft', async () => {
    const root = await copyOfEvents();
    const tooLong = 'x'.repeat(281);
    const result = ask(
      [
        'provider_x',
        'provider_b', // not a provider, then one
        'restart',
        'reset', // not a kind, then one
        'http://social.provider-b.example/@providerb/1',
        'https://social.provider-b.example/@providerb/113500000000000042',
        '@providerb',
        tooLong,
        'All usage limits have been reset.',
        '2026-02-30T09:30:00-05:00',
        'yesterday',
        TYPED_ANNOUNCED, // an impossible date, no date, a date
        'plan:Team',
        'plan:team',
        '', // no effective time
        'pro, team', // audience
        '', // the derived id
      ],
      root,
    );
    noStackTrace(result.stderr);
    expect(result.status).toBe(0);
    const retries = result.stderr.split('\n').filter((line) => line.endsWith('Try again.'));
    expect(retries).toEqual([
      expect.stringMatching(/^ {2}provider must be one of provider_a, provider_b, provider_c/),
      expect.stringMatching(/^ {2}kind must be one of reset, banked, boost, promo, tease/),
      expect.stringMatching(/^ {2}sourceUrl must be an https URL/),
      expect.stringMatching(/^ {2}summary is 281 characters; the limit is 280/),
      expect.stringMatching(
        /^ {2}announcedAt is not a real date-time: the date 2026-02-30 does not exist: February 2026 has 28 days/,
      ),
      expect.stringMatching(/^ {2}announcedAt must be an ISO 8601 date-time/),
      expect.stringMatching(/^ {2}scope must be "global" or "plan:<plan_name>"/),
    ]);
    expect(result.stdout).toMatch(/Audience: who the post addresses/);
    const written = JSON.parse(await readFile(path.join(root, 'provider_b/113500000000000042.json'), 'utf8'));
    expect(written).toEqual({
      id: '113500000000000042',
      provider: 'provider_b',
      kind: 'reset',
      scope: 'plan:team',
      announcedAt: STORED_ANNOUNCED,
      effectiveAt: null,
      sourceUrl: 'https://social.provider-b.example/@providerb/113500000000000042',
      sourceAccount: 'providerb',
      summary: 'All usage limits have been reset.',
      audience: ['pro', 'team'],
      verified: false,
    });
    expect((await checkEventTree(root)).problems).toEqual([]);
  });

  it('refuses a future announcement at its own prompt and asks again there, keeping every answer before it', async () => {
    const root = await copyOfEvents();
    const result = ask(
      [
        'provider_a',
        'reset',
        'https://posts.provider-a.example/@provider_a_eng/1843001794760900001',
        'provider_a_eng',
        'Usage limits have been reset.',
        TYPED_FUTURE, // days ahead
        SOON, // hours ahead, typed with Z
        TYPED_ANNOUNCED, // a time in the past
        '', // global
        STORED_ANNOUNCED, // effective: not after the announcement
        `${postDay}T12:00:00-05:00`, // effective: later the same day
        '', // no audience
        '', // the derived id
      ],
      root,
    );
    noStackTrace(result.stderr);
    expect(result.status).toBe(0);
    const retries = result.stderr.split('\n').filter((line) => line.endsWith('Try again.'));
    expect(retries).toEqual([
      expect.stringMatching(
        new RegExp(`^ {2}announcedAt is in the future \\(now is [^)]+\\); it reads as ${STORED_FUTURE}: check`),
      ),
      expect.stringMatching(/^ {2}announcedAt is in the future \(now is [^)]+\); it reads as /),
      expect.stringMatching(
        new RegExp(`^ {2}effectiveAt must be later than announcedAt \\(${STORED_ANNOUNCED}\\); leave it empty`),
      ),
    ]);
    // Asked again right there: the announcement three times in a row, then the next question, once.
    const questions = result.stdout.split(': ').map((question) => question.split(' (')[0]!.split(',')[0]);
    expect(questions.slice(5, 12)).toEqual([
      'Announced at',
      'Announced at',
      'Announced at',
      'Scope',
      'Effective at',
      'Effective at',
      'Audience',
    ]);
    const written = JSON.parse(await readFile(path.join(root, 'provider_a/1843001794760900001.json'), 'utf8'));
    expect(written).toMatchObject({
      announcedAt: STORED_ANNOUNCED,
      effectiveAt: `${postDay}T17:00:00.000Z`,
      verified: false,
    });
    expect((await checkEventTree(root)).problems).toEqual([]);
  });

  it('stops quietly with exit code 130 when the input ends (Ctrl-D), and writes nothing', async () => {
    const root = await copyOfEvents();
    const before = (await checkEventTree(root)).events.length;
    const result = ask(['provider_b', 'reset'], root);
    expect(result.status).toBe(130);
    noStackTrace(result.stderr);
    expect(result.stderr.trim()).toBe(
      'Input ended (Ctrl-D) before --url, --account, --summary, --announced was answered: nothing was written.',
    );
    expect((await checkEventTree(root)).events.length).toBe(before);
  });

  it('stops quietly with exit code 130 on Ctrl-C (SIGINT), and writes nothing', async () => {
    const root = await copyOfEvents();
    const before = (await checkEventTree(root)).events.length;
    const child = spawn(process.execPath, ['scripts/event-add.ts'], { env: { ...process.env, EVENTS_DIR: root } });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // Answer the first question, and press Ctrl-C once the second one is asked (stdin stays open).
    let answered = false;
    await new Promise<void>((resolve) =>
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (!answered && stdout.includes('Provider (')) {
          answered = true;
          child.stdin.write('provider_b\n');
        }
        if (stdout.includes('Kind (')) resolve();
      }),
    );
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    noStackTrace(stderr);
    expect(stderr.trim()).toBe('Stopped (Ctrl-C): nothing was written.');
    expect((await checkEventTree(root)).events.length).toBe(before);
  });
});

describe('npm run event:verify', () => {
  it('flips a draft to verified, and says so for an unknown id', async () => {
    const root = await copyOfEvents();
    const draft = (await checkEventTree(root)).events.find((event) => !event.verified)!;
    const result = run('scripts/event-verify.ts', [draft.id], root);
    expect(result.status).toBe(0);
    const verified = (await checkEventTree(root)).events.find((event) => event.id === draft.id)!;
    expect(verified).toEqual({ ...draft, verified: true });
    const unknown = run('scripts/event-verify.ts', ['no-such-id'], root);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toMatch(/no event file has this id/);
  });
});
