import { execFileSync, spawnSync } from 'node:child_process';
import { writeFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyServedEvents } from '../support/served-events.ts';
import { tempFolder } from '../support/temp-folders.ts';

/** The job summary of a pull request, from a real git history in a scratch repository. */
describe('scripts/pr-events-summary.ts', () => {
  it('lists the events a branch adds, changes and removes', async () => {
    const repo = tempFolder('git');
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t.example', ...args], {
        cwd: repo,
        encoding: 'utf8',
      });
    await copyServedEvents(path.join(repo, 'content/events'));
    git('init', '-q', '-b', 'main');
    git('add', '.');
    git('commit', '-qm', 'base');
    git('checkout', '-qb', 'feature');
    // A post of yesterday, at a whole second: in the past on any date.
    const announcedAt = new Date(Math.floor(Date.now() / 1000) * 1000 - 86_400_000).toISOString();
    const event = {
      id: 'added-1',
      provider: 'provider_b',
      kind: 'reset',
      scope: 'global',
      announcedAt,
      effectiveAt: null,
      sourceUrl: 'https://social.provider-b.example/@providerb/1',
      sourceAccount: 'providerb',
      summary: 'Reset | all',
      audience: [],
      verified: false,
    };
    await writeFile(path.join(repo, 'content/events/provider_b/added-1.json'), JSON.stringify(event));
    const [removed] = execFileSync('ls', [path.join(repo, 'content/events/provider_b')], { encoding: 'utf8' }).split(
      '\n',
    );
    await rm(path.join(repo, 'content/events/provider_b', removed!));
    git('add', '-A');
    git('commit', '-qm', 'change');
    const run = spawnSync(process.execPath, [path.resolve('scripts/pr-events-summary.ts'), 'main'], {
      cwd: repo,
      encoding: 'utf8',
      env: { ...process.env, EVENTS_DIR: 'content/events' },
    });
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain(
      `| added | added-1 | provider_b | reset | ${announcedAt} | draft | https://social.provider-b.example/@providerb/1 |`,
    );
    expect(run.stdout).toContain(`| removed | content/events/provider_b/${removed} |`);
  });
});
