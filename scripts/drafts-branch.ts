// `node scripts/drafts-branch.ts prepare|publish`: the git side of the watch workflow, kept out of YAML so
// that a test can run it against real repositories.
//
//   prepare  While the drafts pull request is open (DRAFTS_PR_OPEN=true), check out its branch as it is on
//            the remote, reviewers' commits included, so that the watcher adds to it. Otherwise start the
//            branch afresh from the base branch (the last drafts pull request was merged or closed).
//   publish  Commit the new drafts and the watcher's state on top, and push. The push is never forced while
//            the pull request is open: what reviewers committed stays. Prints `pushed=true|false` (a GitHub
//            step output line) and `sha=<commit>`.
//
// Environment: DRAFTS_BRANCH (default watch/drafts), BASE_BRANCH (default main), DRAFTS_PR_OPEN, REMOTE
// (default origin).
import { execFileSync } from 'node:child_process';

const BRANCH = process.env.DRAFTS_BRANCH ?? 'watch/drafts';
const BASE = process.env.BASE_BRANCH ?? 'main';
const REMOTE = process.env.REMOTE ?? 'origin';
const PR_OPEN = process.env.DRAFTS_PR_OPEN === 'true';
const PATHS = ['content/events', 'content/watch/state.json'];

const git = (...args: string[]): string =>
  execFileSync(
    'git',
    ['-c', 'user.name=departures-board watch', '-c', 'user.email=watch@users.noreply.github.com', ...args],
    { encoding: 'utf8' },
  ).trim();

const remoteBranchExists = (): boolean => git('ls-remote', '--heads', REMOTE, BRANCH) !== '';

function prepare(): void {
  git('fetch', '--quiet', REMOTE, BASE);
  if (PR_OPEN && remoteBranchExists()) {
    git('fetch', '--quiet', REMOTE, BRANCH);
    git('checkout', '--quiet', '-B', BRANCH, `${REMOTE}/${BRANCH}`);
    console.log(`Adding to the open drafts pull request's branch ${BRANCH} (${git('rev-parse', '--short', 'HEAD')}).`);
  } else {
    git('checkout', '--quiet', '-B', BRANCH, `${REMOTE}/${BASE}`);
    console.log(`No open drafts pull request: ${BRANCH} starts afresh from ${BASE}.`);
  }
}

function publish(): void {
  git('add', '--all', '--', ...PATHS);
  const staged = git('diff', '--cached', '--name-only');
  if (staged === '') {
    console.log('pushed=false');
    return;
  }
  git(
    'commit',
    '--quiet',
    '-m',
    'Drafts from watched accounts',
    '-m',
    staged
      .split('\n')
      .map((file) => `- ${file}`)
      .join('\n'),
  );
  if (PR_OPEN) {
    // A reviewer may have pushed since `prepare`: put the new commit on top of theirs, never over it.
    git('pull', '--quiet', '--rebase', REMOTE, BRANCH);
    git('push', '--quiet', REMOTE, `HEAD:refs/heads/${BRANCH}`);
  } else {
    // No open pull request owns the branch: what is left of an earlier, finished one is replaced.
    git('push', '--quiet', '--force', REMOTE, `HEAD:refs/heads/${BRANCH}`);
  }
  console.log('pushed=true');
  console.log(`sha=${git('rev-parse', 'HEAD')}`);
}

const command = process.argv[2];
if (command === 'prepare') prepare();
else if (command === 'publish') publish();
else {
  console.error('usage: node scripts/drafts-branch.ts prepare|publish');
  process.exit(2);
}
