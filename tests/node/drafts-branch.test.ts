import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempFolder } from '../support/temp-folders.ts';

/**
 * The watch workflow's git steps (scripts/drafts-branch.ts) against real repositories: a bare "GitHub"
 * repository, a reviewer's clone and the workflow's fresh checkout of main.
 */

const SCRIPT = path.resolve('scripts/drafts-branch.ts');

async function repositories() {
  const root = tempFolder('drafts');
  const origin = path.join(root, 'origin.git');
  const git = (cwd: string, ...args: string[]) =>
    execFileSync(
      'git',
      ['-c', 'user.name=t', '-c', 'user.email=t@t.example', '-c', 'init.defaultBranch=main', ...args],
      { cwd, encoding: 'utf8' },
    ).trim();
  git(root, 'init', '--quiet', '--bare', origin);
  const seed = path.join(root, 'seed');
  git(root, 'clone', '--quiet', origin, seed);
  await mkdir(path.join(seed, 'content/events/provider_a'), { recursive: true });
  await mkdir(path.join(seed, 'content/watch'), { recursive: true });
  await writeFile(path.join(seed, 'content/events/provider_a/old.json'), '{"id":"old"}\n');
  await writeFile(path.join(seed, 'content/watch/state.json'), '{"seen":{}}\n');
  git(seed, 'add', '.');
  git(seed, 'commit', '--quiet', '-m', 'main');
  git(seed, 'push', '--quiet', 'origin', 'HEAD:main');

  /** A clone, as a reviewer or the workflow's checkout of main has it. */
  const clone = (name: string) => {
    const folder = path.join(root, name);
    git(root, 'clone', '--quiet', '--branch', 'main', origin, folder);
    return folder;
  };
  const run = (cwd: string, command: 'prepare' | 'publish', prOpen: boolean) =>
    execFileSync(process.execPath, [SCRIPT, command], {
      cwd,
      encoding: 'utf8',
      env: { ...process.env, DRAFTS_PR_OPEN: String(prOpen) },
    });
  const remoteFiles = (ref: string) => git(origin, 'ls-tree', '-r', '--name-only', ref).split('\n');
  return { origin, git, clone, run, remoteFiles };
}

describe('the watch workflow adds drafts on top of the open drafts pull request', () => {
  it('keeps what a reviewer committed, also when they push while the watcher runs', async () => {
    const { origin, git, clone, run, remoteFiles } = await repositories();
    // The open pull request's branch, with a first draft and a reviewer's fix.
    const reviewer = clone('reviewer');
    git(reviewer, 'checkout', '--quiet', '-b', 'watch/drafts');
    await writeFile(path.join(reviewer, 'content/events/provider_a/first.json'), '{"id":"first","verified":true}\n');
    git(reviewer, 'add', '.');
    git(reviewer, 'commit', '--quiet', '-m', 'Reviewer verified the first draft');
    git(reviewer, 'push', '--quiet', 'origin', 'watch/drafts');
    const reviewed = git(origin, 'rev-parse', 'watch/drafts');

    const workflow = clone('workflow');
    run(workflow, 'prepare', true);
    expect(git(workflow, 'rev-parse', 'HEAD')).toBe(reviewed);
    // The watcher writes a new draft; meanwhile the reviewer pushes once more.
    await writeFile(path.join(workflow, 'content/events/provider_a/second.json'), '{"id":"second"}\n');
    await writeFile(
      path.join(reviewer, 'content/events/provider_a/first.json'),
      '{"id":"first","verified":true,"kind":"reset"}\n',
    );
    git(reviewer, 'commit', '--quiet', '-am', 'Reviewer fixed the kind');
    git(reviewer, 'push', '--quiet', 'origin', 'watch/drafts');
    const reviewedAgain = git(origin, 'rev-parse', 'watch/drafts');

    const output = run(workflow, 'publish', true);
    expect(output).toMatch(/^pushed=true$/m);
    const tip = git(origin, 'rev-parse', 'watch/drafts');
    expect(output).toContain(`sha=${tip}`);
    // Both reviewer commits are ancestors of the new tip, and the tip holds every file.
    for (const commit of [reviewed, reviewedAgain])
      expect(() => git(origin, 'merge-base', '--is-ancestor', commit, tip)).not.toThrow();
    expect(remoteFiles('watch/drafts')).toEqual(
      expect.arrayContaining(['content/events/provider_a/first.json', 'content/events/provider_a/second.json']),
    );
    expect(git(origin, 'show', 'watch/drafts:content/events/provider_a/first.json')).toContain('"kind":"reset"');
  });

  it('starts afresh from main when no drafts pull request is open, and pushes nothing when nothing is new', async () => {
    const { origin, git, clone, run, remoteFiles } = await repositories();
    const old = clone('old');
    git(old, 'checkout', '--quiet', '-b', 'watch/drafts');
    await writeFile(path.join(old, 'content/events/provider_a/merged-long-ago.json'), '{}\n');
    git(old, 'add', '.');
    git(old, 'commit', '--quiet', '-m', 'an earlier, finished drafts pull request');
    git(old, 'push', '--quiet', 'origin', 'watch/drafts');

    const workflow = clone('workflow');
    run(workflow, 'prepare', false);
    expect(git(workflow, 'rev-parse', 'HEAD')).toBe(git(origin, 'rev-parse', 'main'));
    expect(run(workflow, 'publish', false).trim()).toBe('pushed=false');
    expect(remoteFiles('watch/drafts')).toContain('content/events/provider_a/merged-long-ago.json');

    await writeFile(path.join(workflow, 'content/events/provider_a/new.json'), '{}\n');
    await writeFile(path.join(workflow, 'content/watch/state.json'), '{"seen":{"provider_a":["new"]}}\n');
    expect(run(workflow, 'publish', false)).toMatch(/^pushed=true$/m);
    expect(remoteFiles('watch/drafts').sort()).toEqual([
      'content/events/provider_a/new.json',
      'content/events/provider_a/old.json',
      'content/watch/state.json',
    ]);
    expect(git(origin, 'rev-parse', 'watch/drafts~1')).toBe(git(origin, 'rev-parse', 'main'));
    expect(JSON.parse(await readFile(path.join(workflow, 'content/watch/state.json'), 'utf8'))).toEqual({
      seen: { provider_a: ['new'] },
    });
  });
});
