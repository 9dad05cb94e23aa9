import { validateWorkflow } from '@action-validator/core';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

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
    expect(readFileSync('README.md', 'utf8')).toContain('checks (watch)');
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
  it('a build in CI without SITE_URL stops before any work, with a message that names SITE_URL', () => {
    const outDir = mkdtempSync(path.join(tmpdir(), 'departures-board-no-site-url-'));
    const result = spawnSync(process.execPath, ['node_modules/astro/bin/astro.mjs', 'build', '--outDir', outDir], {
      encoding: 'utf8',
      env: { ...process.env, CI: 'true', SITE_URL: '', ASTRO_TELEMETRY_DISABLED: '1', NO_COLOR: '1' },
    });
    expect(result.status).not.toBe(0);
    expect(`${result.stdout}${result.stderr}`).toMatch(/SITE_URL is not set/);
    expect(existsSync(path.join(outDir, 'server'))).toBe(false);
  });
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
