import { execFileSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LoaderContext } from 'astro/loaders';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventProvenance } from '../core/provenance.ts';
import { eventProvenanceLoader } from './provenance-loader.ts';

/**
 * The `provenance` collection's loader on a repository made here: an event recorded as a draft, verified in a
 * later commit. Expected shas come from `git rev-parse`, times from the committer dates set, the lag by hand.
 * The same tree copied outside git loads every event with null fields, and the load does not fail.
 */

let root: string;
let repo: string;
// Three days before the run, on a whole minute: a post in the past whatever the date (validation refuses a future one).
const minutes = (count: number) => count * 60_000;
const postedAt = Math.floor(Date.now() / minutes(1)) * minutes(1) - minutes(3 * 24 * 60);
const POST = new Date(postedAt).toISOString();
const RECORDED = new Date(postedAt + minutes(20)).toISOString();
const VERIFIED = new Date(postedAt + minutes(105)).toISOString();

const event = (verified: boolean) => ({
  id: 'first-reset',
  provider: 'provider_a',
  kind: 'reset',
  scope: 'global',
  announcedAt: POST,
  effectiveAt: null,
  sourceUrl: 'https://posts.example/first-reset',
  sourceAccount: 'official',
  summary: 'Limits reset for everyone.',
  audience: [],
  verified,
});

function git(args: string[], date?: string): string {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@example.org' };
  Object.assign(env, { GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@example.org' });
  delete env.GIT_DIR;
  delete env.GIT_WORK_TREE;
  delete env.GIT_INDEX_FILE;
  if (date) Object.assign(env, { GIT_COMMITTER_DATE: date, GIT_AUTHOR_DATE: date });
  return execFileSync('git', args, { cwd: repo, env, encoding: 'utf8' }).trim();
}

async function load(eventsDir: string): Promise<Map<string, EventProvenance>> {
  const entries = new Map<string, EventProvenance>();
  const context = {
    store: {
      clear: () => entries.clear(),
      set: ({ id, data }: { id: string; data: EventProvenance }) => entries.set(id, data),
    },
    parseData: async ({ data }: { data: EventProvenance }) => data,
    generateDigest: () => 'digest',
    logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
  } as unknown as LoaderContext;
  await eventProvenanceLoader(eventsDir).load(context);
  return entries;
}

const eventFile = () => path.join(repo, 'content/events/provider_a/first-reset.json');

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'provenance-loader-'));
  repo = path.join(root, 'repo');
  await mkdir(path.join(repo, 'content/events/provider_a'), { recursive: true });
  git(['init', '--quiet', '--initial-branch=main']);
  await writeFile(eventFile(), `${JSON.stringify(event(false), null, 2)}\n`);
  git(['add', '--all']);
  git(['commit', '--quiet', '--no-gpg-sign', '-m', 'draft'], RECORDED);
  await writeFile(eventFile(), `${JSON.stringify(event(true), null, 2)}\n`);
  git(['commit', '--quiet', '--no-gpg-sign', '-am', 'verify'], VERIFIED);
});

afterAll(() => rm(root, { recursive: true, force: true }));

describe('the provenance collection loader', () => {
  it('loads each event’s recorded and verified commits from the repository, linked to REPOSITORY_URL', async () => {
    const previous = process.env.REPOSITORY_URL;
    process.env.REPOSITORY_URL = 'https://code.example/owner/board/';
    try {
      const loaded = await load(path.join(repo, 'content/events'));
      const verifiedSha = git(['rev-parse', 'HEAD']);
      const recordedSha = git(['rev-parse', 'HEAD~1']);
      expect(loaded).toEqual(
        new Map([
          [
            'first-reset',
            {
              recordedAt: RECORDED,
              verifiedAt: VERIFIED,
              recordedCommit: { sha: recordedSha, url: `https://code.example/owner/board/commit/${recordedSha}` },
              verifiedCommit: { sha: verifiedSha, url: `https://code.example/owner/board/commit/${verifiedSha}` },
              lagMinutes: 105, // 09:00 → 10:45
              review: null,
            },
          ],
        ]),
      );
    } finally {
      if (previous === undefined) delete process.env.REPOSITORY_URL;
      else process.env.REPOSITORY_URL = previous;
    }
  });

  it('loads null fields for a tree outside git, without failing', async () => {
    const outside = path.join(root, 'exported');
    await cp(path.join(repo, 'content'), outside, { recursive: true });
    const loaded = await load(path.join(outside, 'events'));
    expect(loaded).toEqual(
      new Map([
        [
          'first-reset',
          {
            recordedAt: null,
            verifiedAt: null,
            recordedCommit: null,
            verifiedCommit: null,
            lagMinutes: null,
            review: null,
          },
        ],
      ]),
    );
  });
});
