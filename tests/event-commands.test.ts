import { spawnSync } from 'node:child_process';
import { cp, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkEventTree } from '../src/node/check-event-tree.ts';
import { SERVED_EVENTS_DIR } from './support/served-events.ts';

/** npm run event:add and event:verify, run on a temporary copy of a fixture tree (never content/events). */

async function copyOfEvents() {
  const root = path.join(await mkdtemp(path.join(tmpdir(), 'departures-board-events-')), 'events');
  await cp(SERVED_EVENTS_DIR, root, { recursive: true });
  return root;
}
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
  '2026-11-20T09:30:00-05:00',
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
      announcedAt: '2026-11-20T14:30:00.000Z',
      scope: 'plan:team',
      sourceAccount: 'providerb',
      verified: false,
    });
    expect((await checkEventTree(root)).problems).toEqual([]);
  });

  it('refuses to overwrite an existing event', async () => {
    const root = await copyOfEvents();
    expect(run('scripts/event-add.ts', ADD, root).status).toBe(0);
    const before = await readFile(path.join(root, 'provider_b/113599999999999999.json'), 'utf8');
    const again = run(
      'scripts/event-add.ts',
      [...ADD.slice(0, -4), '--summary', 'changed', '--announced', '2026-11-20T09:30:00Z'],
      root,
    );
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/already exists; nothing was overwritten/);
    expect(await readFile(path.join(root, 'provider_b/113599999999999999.json'), 'utf8')).toBe(before);
  });

  it('names each bad or missing field and writes nothing', async () => {
    const root = await copyOfEvents();
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
        '2026-11-20T09:30:00Z',
      ],
      root,
    );
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/kind:/);
    expect(bad.stderr).toMatch(/sourceUrl:/);
    const missing = run('scripts/event-add.ts', ['--provider', 'provider_b'], root);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/Missing: --kind, --url, --account, --summary, --announced/);
    expect((await checkEventTree(root)).events.length).toBe((await checkEventTree(SERVED_EVENTS_DIR)).events.length);
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
