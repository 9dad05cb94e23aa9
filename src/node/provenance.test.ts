import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventProvenanceSchema } from '../core/provenance.ts';
import type { Event } from '../core/schemas.ts';
import { readProvenance } from './provenance.ts';

/**
 * A real repository built here, commit by commit, with fixed committer dates (and different author dates,
 * to show which one counts). Expected shas come from `git rev-parse`, expected times from the dates set.
 */

const REPOSITORY_URL = 'https://code.example/owner/board';

let root: string;
let repo: string;
let eventsDir: string;
const sha: Record<string, string> = {};

const eventOf = (id: string, provider: string, announcedAt: string, verified: boolean): Event => ({
  id,
  provider: provider as Event['provider'],
  kind: 'reset',
  scope: 'global',
  announcedAt,
  effectiveAt: null,
  sourceUrl: `https://posts.example/${id}`,
  sourceAccount: 'official',
  summary: `Limits reset (${id}).`,
  audience: [],
  verified,
});

const events = {
  alpha: eventOf('alpha', 'provider_a', '2026-11-01T09:15:00.000Z', false),
  beta: eventOf('beta', 'provider_b', '2026-11-01T11:00:00.000Z', true),
  draft: eventOf('draft', 'provider_c', '2026-11-01T11:10:00.000Z', false),
  gamma: eventOf('gamma', 'provider_a', '2026-11-03T06:00:00.000Z', true),
  delta: eventOf('delta', 'provider_b', '2026-11-04T12:00:00.000Z', true),
};

function run(args: string[], cwd: string, date?: string) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    GIT_AUTHOR_NAME: 'Tester',
    GIT_AUTHOR_EMAIL: 't@example.org',
    GIT_COMMITTER_NAME: 'Tester',
    GIT_COMMITTER_EMAIL: 't@example.org',
  };
  delete env.GIT_DIR;
  delete env.GIT_WORK_TREE;
  delete env.GIT_INDEX_FILE;
  if (date) {
    env.GIT_COMMITTER_DATE = date;
    // An author date two days earlier: the committer date is the one that must come out.
    env.GIT_AUTHOR_DATE = new Date(Date.parse(date) - 2 * 86_400_000).toISOString();
  }
  return execFileSync('git', args, { cwd, env, encoding: 'utf8' }).trim();
}

async function writeEvent(event: Event, folder = event.provider) {
  await mkdir(path.join(eventsDir, folder), { recursive: true });
  await writeFile(path.join(eventsDir, folder, `${event.id}.json`), `${JSON.stringify(event, null, 2)}\n`);
}

function commit(name: string, date: string) {
  run(['add', '--all'], repo);
  run(['commit', '--quiet', '--no-gpg-sign', '-m', name], repo, date);
  sha[name] = run(['rev-parse', 'HEAD'], repo);
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'provenance-test-'));
  repo = path.join(root, 'repo');
  eventsDir = path.join(repo, 'content', 'events');
  await mkdir(eventsDir, { recursive: true });
  run(['init', '--quiet', '--initial-branch=main', repo], root);
  await writeFile(path.join(repo, 'README.md'), 'outside the event tree\n');
  commit('c0-readme', '2026-10-31T08:00:00Z');

  await writeEvent(events.alpha); // added as a draft
  await writeFile(path.join(eventsDir, 'NOTES.md'), 'not an event\n');
  commit('c1-alpha-draft', '2026-11-01T10:00:00Z');

  await writeEvent({ ...events.alpha, verified: true }); // verified by hand
  await writeEvent(events.beta); // added already verified
  await writeEvent(events.draft); // a draft that stays one
  commit('c2-verify-alpha-add-beta', '2026-11-01T11:30:00Z');

  await writeEvent({ ...events.alpha, verified: true, summary: 'Limits reset (alpha), wording fixed.' });
  await rm(path.join(eventsDir, 'provider_b', 'beta.json'));
  await writeEvent({ ...events.beta, provider: 'provider_c' }, 'provider_c'); // moved to another provider folder
  await mkdir(path.join(eventsDir, 'provider_a'), { recursive: true });
  await writeFile(path.join(eventsDir, 'provider_a', 'we"ird name.json'), '{"verified": true}\n');
  commit('c3-edit-alpha-move-beta', '2026-11-02T08:00:00Z');

  await writeEvent(events.gamma);
  commit('c4-gamma-verified', '2026-11-03T07:00:00Z');
  await writeEvent({ ...events.gamma, verified: false });
  commit('c5-gamma-unverified', '2026-11-03T08:00:00Z');
  await writeEvent(events.gamma);
  commit('c6-gamma-verified-again', '2026-11-03T09:45:30Z');

  // delta arrives through a merged branch: it counts from the merge, the commit that brought it into main.
  run(['switch', '--quiet', '-c', 'contribution'], repo);
  await writeEvent(events.delta);
  commit('c7-branch-delta', '2026-11-04T12:10:00Z');
  run(['switch', '--quiet', 'main'], repo);
  run(
    ['merge', '--quiet', '--no-ff', '--no-gpg-sign', '-m', 'merge contribution', 'contribution'],
    repo,
    '2026-11-04T13:00:00Z',
  );
  sha['c8-merge'] = run(['rev-parse', 'HEAD'], repo);
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const commitRef = (name: string) => ({ sha: sha[name]!, url: `${REPOSITORY_URL}/commit/${sha[name]!}` });

describe('readProvenance on a real repository', () => {
  it('gives every field of every event from the commits that made them', async () => {
    const provenance = await readProvenance({
      eventsDir,
      events: Object.values(events),
      repositoryUrl: `${REPOSITORY_URL}/`,
    });
    expect(provenance.get('alpha')).toEqual({
      recordedAt: '2026-11-01T10:00:00.000Z',
      verifiedAt: '2026-11-01T11:30:00.000Z',
      recordedCommit: commitRef('c1-alpha-draft'),
      verifiedCommit: commitRef('c2-verify-alpha-add-beta'),
      lagMinutes: 135, // 09:15 → 11:30
      review: null,
    });
    expect(provenance.get('beta')).toEqual({
      recordedAt: '2026-11-01T11:30:00.000Z',
      verifiedAt: '2026-11-01T11:30:00.000Z',
      recordedCommit: commitRef('c2-verify-alpha-add-beta'),
      verifiedCommit: commitRef('c2-verify-alpha-add-beta'),
      lagMinutes: 30,
      review: null,
    });
    expect(provenance.get('draft')).toEqual({
      recordedAt: '2026-11-01T11:30:00.000Z',
      verifiedAt: null,
      recordedCommit: commitRef('c2-verify-alpha-add-beta'),
      verifiedCommit: null,
      lagMinutes: null,
      review: null,
    });
    expect(provenance.get('gamma')).toEqual({
      recordedAt: '2026-11-03T07:00:00.000Z',
      verifiedAt: '2026-11-03T09:45:30.000Z',
      recordedCommit: commitRef('c4-gamma-verified'),
      verifiedCommit: commitRef('c6-gamma-verified-again'),
      lagMinutes: 226, // 06:00 → 09:45:30 is 225.5 minutes, rounded
      review: null,
    });
    expect(provenance.get('delta')).toEqual({
      recordedAt: '2026-11-04T13:00:00.000Z',
      verifiedAt: '2026-11-04T13:00:00.000Z',
      recordedCommit: commitRef('c8-merge'),
      verifiedCommit: commitRef('c8-merge'),
      lagMinutes: 60,
      review: null,
    });
    for (const value of provenance.values()) expect(EventProvenanceSchema.parse(value)).toEqual(value);
  });

  it('leaves commit URLs null without a repository URL, and an uncommitted event unknown', async () => {
    const uncommitted = eventOf('not-committed', 'provider_a', '2026-11-05T00:00:00.000Z', true);
    const provenance = await readProvenance({ eventsDir, events: [events.beta, uncommitted], repositoryUrl: null });
    expect(provenance.get('beta')?.recordedCommit).toEqual({ sha: sha['c2-verify-alpha-add-beta'], url: null });
    expect(provenance.get('not-committed')).toEqual({
      recordedAt: null,
      verifiedAt: null,
      recordedCommit: null,
      verifiedCommit: null,
      lagMinutes: null,
      review: null,
    });
  });

  it('never hands an id to git: odd ids are simply unknown', async () => {
    const leak = path.join(root, 'leak.txt');
    const odd = [`--output=${leak}`, '$(touch pwned)', '../../README', '-p'].map((id) => ({
      id,
      announcedAt: '2026-11-01T00:00:00.000Z',
    }));
    const provenance = await readProvenance({ eventsDir, events: odd, repositoryUrl: null });
    for (const { id } of odd) expect(provenance.get(id)?.recordedAt).toBeNull();
    expect(existsSync(leak)).toBe(false);
    expect(existsSync(path.join(eventsDir, 'pwned'))).toBe(false);
  });

  it('gives nulls, without failing, outside a git checkout and in a shallow clone', async () => {
    const loose = path.join(root, 'tarball', 'events');
    await mkdir(path.join(loose, 'provider_a'), { recursive: true });
    await writeFile(path.join(loose, 'provider_a', 'alpha.json'), JSON.stringify(events.alpha));
    const outside = await readProvenance({ eventsDir: loose, events: [events.alpha], repositoryUrl: REPOSITORY_URL });
    expect(outside.get('alpha')).toEqual({
      recordedAt: null,
      verifiedAt: null,
      recordedCommit: null,
      verifiedCommit: null,
      lagMinutes: null,
      review: null,
    });

    const missing = await readProvenance({ eventsDir: path.join(root, 'no-such-folder'), events: [events.alpha] });
    expect(missing.get('alpha')?.recordedAt).toBeNull();

    const shallow = path.join(root, 'shallow');
    run(['clone', '--quiet', '--depth', '1', `file://${repo}`, shallow], root);
    const fromShallow = await readProvenance({
      eventsDir: path.join(shallow, 'content', 'events'),
      events: [events.alpha],
    });
    expect(fromShallow.get('alpha')?.recordedAt).toBeNull();
  });
});
