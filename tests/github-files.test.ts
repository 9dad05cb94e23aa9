import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/** The GitHub workflows and forms parse, pin their actions, ask for little, and call what exists. */

interface Step {
  uses?: string;
  run?: string;
}
interface Workflow {
  on: Record<string, unknown>;
  permissions: Record<string, string>;
  jobs: Record<string, { steps: Step[] }>;
}

const WORKFLOW_DIR = '.github/workflows';
const workflows = Object.fromEntries(
  readdirSync(WORKFLOW_DIR).map((file) => [file, parse(readFileSync(`${WORKFLOW_DIR}/${file}`, 'utf8')) as Workflow]),
);
const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
const steps = (workflow: Workflow) => Object.values(workflow.jobs).flatMap((job) => job.steps);

describe('GitHub workflows', () => {
  it('are the three the project needs', () => {
    expect(Object.keys(workflows).sort()).toEqual(['ci.yml', 'deploy.yml', 'watch.yml']);
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

  it('main deploys with wrangler, with the secrets the README names', () => {
    const deploy = readFileSync(`${WORKFLOW_DIR}/deploy.yml`, 'utf8');
    expect(deploy).toMatch(/wrangler\.js deploy --config dist\/server\/wrangler\.json/);
    const readme = readFileSync('README.md', 'utf8');
    for (const secret of ['CLOUDFLARE_API_TOKEN', 'CLOUDFLARE_ACCOUNT_ID', 'SITE_URL']) {
      expect(deploy).toContain(secret);
      expect(readme).toContain(secret);
    }
  });

  it('watches every 15 minutes and proposes drafts as one pull request', () => {
    const watch = workflows['watch.yml']!;
    expect(watch.on['schedule']).toEqual([{ cron: '*/15 * * * *' }]);
    expect(steps(watch).some((step) => step.uses?.startsWith('peter-evans/create-pull-request@'))).toBe(true);
    expect(watch.permissions).toEqual({ contents: 'write', 'pull-requests': 'write' });
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
