import { validateWorkflow } from '@action-validator/core';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { tempFolder } from '../support/temp-folders.ts';
import { scaled } from '../../scripts/lib/load-scaled.ts';

/** The GitHub workflows and forms parse, pin their actions, ask for little, and call what exists. */

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
  if?: string;
}
interface Job {
  steps?: Step[];
  uses?: string;
  needs?: string | string[];
}
interface Workflow {
  on: Record<string, unknown>;
  permissions: Record<string, string>;
  jobs: Record<string, Job>;
}

const WORKFLOW_DIR = '.github/workflows';
const workflows = Object.fromEntries(
  readdirSync(WORKFLOW_DIR).map((file) => [file, parse(readFileSync(`${WORKFLOW_DIR}/${file}`, 'utf8')) as Workflow]),
);
const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
// A job that calls a reusable workflow has no steps of its own.
const steps = (workflow: Workflow) => Object.values(workflow.jobs).flatMap((job) => job.steps ?? []);

describe('GitHub workflows', () => {
  it('are the three the project needs', () => {
    expect(Object.keys(workflows).sort()).toEqual(['ci.yml', 'deploy.yml', 'watch.yml']);
  });

  it.each(Object.keys(workflows))(
    '%s is a valid workflow for GitHub (checked by action-validator against the workflow schema)',
    (file) => {
      expect(validateWorkflow(readFileSync(`${WORKFLOW_DIR}/${file}`, 'utf8')).errors).toEqual([]);
    },
  );

  it.each(Object.keys(workflows))('%s sets up the Node version the project pins (.nvmrc) and caches npm', (file) => {
    const setups = steps(workflows[file]!).filter((step) => step.uses?.startsWith('actions/setup-node@'));
    expect(setups.length).toBeGreaterThan(0);
    for (const setup of setups) expect(setup.with).toEqual({ 'node-version-file': '.nvmrc', cache: 'npm' });
  });

  it.each(Object.keys(workflows))('%s pins every action by commit and sets its permissions', (file) => {
    const workflow = workflows[file]!;
    expect(workflow.permissions).toBeDefined();
    for (const step of steps(workflow).filter((candidate) => candidate.uses)) {
      expect(step.uses).toMatch(/^[\w.-]+\/[\w.-]+@[0-9a-f]{40}$/);
    }
  });

  it.each(Object.keys(workflows))('%s runs only npm scripts and files that exist', (file) => {
    const commands = steps(workflows[file]!).flatMap((step) => (step.run ? [step.run] : []));
    for (const command of commands) {
      for (const [, name] of command.matchAll(/npm run ([\w:-]+)/g)) expect(Object.keys(scripts)).toContain(name);
      for (const [path] of command.matchAll(/(?:scripts|\.ci)\/[\w./-]+/g)) expect(existsSync(path), path).toBe(true);
    }
  });

  it('pull requests run the tests, build, and summarise the events they touch', () => {
    const ci = workflows['ci.yml']!;
    expect(Object.keys(ci.on)).toContain('pull_request');
    const commands = steps(ci)
      .map((step) => step.run ?? '')
      .join('\n');
    expect(commands).toMatch(/\.ci\/run/);
    expect(commands).toMatch(/npm run build/);
    expect(commands).toMatch(/pr-events-summary\.ts.*GITHUB_STEP_SUMMARY/);
    expect(ci.permissions).toEqual({ contents: 'read' });
  });

  it('main deploys only after the checks of ci.yml passed', () => {
    const deploy = workflows['deploy.yml']!;
    expect(Object.keys(workflows['ci.yml']!.on)).toContain('workflow_call');
    expect(Object.keys(workflows['ci.yml']!.on)).not.toContain('push');
    const checks = Object.entries(deploy.jobs).find(([, job]) => job.uses === './.github/workflows/ci.yml');
    expect(checks).toBeDefined();
    const deploying = Object.values(deploy.jobs).filter((job) =>
      (job.steps ?? []).some((step) => /wrangler\.js deploy/.test(step.run ?? '')),
    );
    expect(deploying).toHaveLength(1);
    expect([deploying[0]!.needs].flat()).toContain(checks![0]);
  });

  it('a push to main that changes only event files deploys without the checks, still validating and building', () => {
    const deploy = workflows['deploy.yml']!;
    const jobs = deploy.jobs as Record<string, Job & { if?: string; outputs?: Record<string, string> }>;
    const [checksName, checks] = Object.entries(jobs).find(([, job]) => job.uses === './.github/workflows/ci.yml')!;
    expect(checks.if).toMatch(/data-only != 'true'/);
    expect(checks.needs).toBe('changes');
    expect(jobs['changes']?.steps?.some((step) => /\.ci\/data-only-push/.test(step.run ?? ''))).toBe(true);
    // The base is the last deploy that succeeded, never the commit main was at before the push.
    const changes = jobs['changes']!;
    expect(
      changes.steps?.some((step) => /gh run list --workflow deploy\.yml[\s\S]*--status success/.test(step.run ?? '')),
    ).toBe(true);
    expect(JSON.stringify(changes)).not.toContain('github.event.before');
    const deploying = Object.values(jobs).find((job) =>
      (job.steps ?? []).some((step) => /wrangler\.js deploy/.test(step.run ?? '')),
    )!;
    expect([deploying.needs].flat()).toEqual(['changes', checksName]);
    // A skipped checks job skips its dependents unless their condition says otherwise; a failed one never deploys.
    expect(deploying.if).toMatch(/!cancelled\(\)/);
    expect(deploying.if).toMatch(/needs\.checks\.result == 'success'/);
    expect(deploying.if).toMatch(/needs\.checks\.result == 'skipped' && needs\.changes\.outputs\.data-only == 'true'/);
    const commands = (deploying.steps ?? []).map((step) => step.run ?? '');
    const validate = commands.findIndex((command) => /npm run validate/.test(command));
    expect(validate).toBeGreaterThanOrEqual(0);
    expect(validate).toBeLessThan(commands.findIndex((command) => /npm run build/.test(command)));
  });

  it('.ci/data-only-push calls a push data-only only when every changed file is under content/events/', () => {
    const repo = tempFolder('data-only');
    const git = (...args: string[]) => {
      const result = spawnSync('git', args, { cwd: repo, encoding: 'utf8' });
      expect(result.status, result.stderr).toBe(0);
      return result.stdout.trim();
    };
    const commit = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
      writeFileSync(path.join(repo, file), text);
      git('add', file);
      git('-c', 'user.name=t', '-c', 'user.email=t@example.org', 'commit', '-qm', file);
      return git('rev-parse', 'HEAD');
    };
    const script = path.resolve('.ci/data-only-push');
    const verdict = (...args: string[]) =>
      spawnSync('bash', [script, ...args], { cwd: repo, encoding: 'utf8' }).stdout.trim();
    git('init', '-q');
    const base = commit('src/app.ts', 'code');
    const event = commit('content/events/provider_a/1.json', '{}');
    const secondEvent = commit('content/events/provider_b/2.json', '{}');
    expect(verdict(base, secondEvent)).toBe('data-only=true');
    expect(verdict(event, secondEvent, 'false')).toBe('data-only=true');
    const code = commit('src/app.ts', 'code, changed');
    expect(verdict(event, code)).toBe('data-only=false');
    const watch = commit('content/watch/sources.json', '{}');
    expect(verdict(code, watch)).toBe('data-only=false');
    // A new branch, a force push, a before this clone lacks or that is not an ancestor, nothing changed.
    expect(verdict('0'.repeat(40), secondEvent)).toBe('data-only=false');
    expect(verdict('', secondEvent)).toBe('data-only=false');
    expect(verdict(base, secondEvent, 'true')).toBe('data-only=false');
    expect(verdict('f'.repeat(40), secondEvent)).toBe('data-only=false');
    expect(verdict(secondEvent, event)).toBe('data-only=false');
    expect(verdict(event, event)).toBe('data-only=false');
  });

  it('main deploys with wrangler, with the secrets the README names', () => {
    const deploy = readFileSync(`${WORKFLOW_DIR}/deploy.yml`, 'utf8');
    expect(deploy).toMatch(/wrangler\.js deploy --config dist\/server\/wrangler\.json/);
    const readme = readFileSync('README.md', 'utf8');
    for (const secret of ['CLOUDFLARE_API_TOKEN', 'CLOUDFLARE_ACCOUNT_ID', 'SITE_URL']) {
      expect(deploy).toContain(secret);
      expect(readme).toContain(secret);
    }
  });

  it('watches every 15 minutes and adds drafts on top of the open drafts pull request, never rebuilding it', () => {
    const watch = workflows['watch.yml']!;
    expect(watch.on['schedule']).toEqual([{ cron: '*/15 * * * *' }]);
    const commands = steps(watch).map((step) => step.run ?? '');
    // peter-evans/create-pull-request resets the branch to the base on every run: reviewers' commits would go.
    expect(steps(watch).some((step) => step.uses?.startsWith('peter-evans/create-pull-request@'))).toBe(false);
    const prepare = commands.findIndex((command) => /drafts-branch\.ts prepare/.test(command));
    const watching = commands.findIndex((command) => /npm run watch/.test(command));
    const publish = commands.findIndex((command) => /drafts-branch\.ts publish/.test(command));
    expect(prepare).toBeGreaterThanOrEqual(0);
    expect(prepare).toBeLessThan(watching);
    expect(watching).toBeLessThan(publish);
    expect(watch.permissions).toEqual({ contents: 'write', 'pull-requests': 'write', statuses: 'write' });
  });

  it('the drafts pull request gets the checks: run in the watch job after the push, reported as a commit status', () => {
    const watchSteps = steps(workflows['watch.yml']!);
    const publish = watchSteps.findIndex((step) => /drafts-branch\.ts publish/.test(step.run ?? ''));
    const checks = watchSteps.findIndex(
      (step) => /bash \.ci\/run/.test(step.run ?? '') && /npm run build/.test(step.run ?? ''),
    );
    expect(checks).toBeGreaterThan(publish);
    const report = watchSteps.slice(checks + 1).find((step) => /statuses\/\$SHA/.test(step.run ?? ''));
    expect(report?.if).toMatch(/always\(\)/);
    expect(readFileSync('docs/watch.md', 'utf8')).toContain('checks (watch)');
  });
});

describe('the Node version', () => {
  it('is 24 everywhere: .nvmrc, engines and the pinned node package', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
      engines: { node: string };
      devDependencies: Record<string, string>;
    };
    expect(readFileSync('.nvmrc', 'utf8').trim()).toBe('24');
    expect(pkg.devDependencies['node']).toMatch(/^\^24\./);
    expect(pkg.engines.node).toMatch(/>=\s*2[24]/);
  });
});

describe('SITE_URL', () => {
  // An Astro run: its own limit, as the builds project's (vitest.config.ts), since the project's is scaled by the load
  // read as the run starts, before the run's own load has risen.
  it(
    'a build in CI without SITE_URL stops before any work, with a message that names SITE_URL',
    () => {
      const outDir = tempFolder('no-site-url');
      const result = spawnSync(process.execPath, ['node_modules/astro/bin/astro.mjs', 'build', '--outDir', outDir], {
        encoding: 'utf8',
        env: { ...process.env, CI: 'true', SITE_URL: '', ASTRO_TELEMETRY_DISABLED: '1', NO_COLOR: '1' },
      });
      expect(result.status).not.toBe(0);
      expect(`${result.stdout}${result.stderr}`).toMatch(/SITE_URL is not set/);
      expect(existsSync(path.join(outDir, 'server'))).toBe(false);
    },
    scaled(180_000),
  );
});

describe('contributor files', () => {
  it('the issue form parses and asks for every field an event needs', () => {
    const form = parse(readFileSync('.github/ISSUE_TEMPLATE/report-a-reset.yml', 'utf8')) as { body: { id: string }[] };
    expect(form.body.map((field) => field.id)).toEqual([
      'provider',
      'kind',
      'source-url',
      'account',
      'announced-at',
      'effective-at',
      'scope',
      'summary',
    ]);
  });

  it('the pull request template and CONTRIBUTING.md exist', () => {
    expect(readFileSync('.github/pull_request_template.md', 'utf8')).toMatch(/npm run validate/);
    expect(readFileSync('CONTRIBUTING.md', 'utf8')).toMatch(/npm run event:add/);
  });
});
