import { spawnSync } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { buildSite } from '../scripts/lib/local-server.ts';
import { makeEvent } from '../src/core/test-events.ts';
import { writeEventTree } from './support/event-trees.ts';

const good = makeEvent({ id: 'good-1', announcedAt: '2026-01-02T03:04:05.678Z' });
const badTree = () =>
  writeEventTree({
    'provider_a/good-1.json': JSON.stringify(good),
    'provider_a/bad-json.json': '{ "id": ',
    'provider_b/bad-fields.json': JSON.stringify({
      ...good,
      id: 'bad-fields',
      provider: 'provider_b',
      kind: 'restart',
      sourceUrl: 'http://x.example/1',
    }),
  });

const runValidate = (eventsDir: string) =>
  spawnSync(process.execPath, ['scripts/validate.ts'], {
    env: { ...process.env, EVENTS_DIR: eventsDir },
    encoding: 'utf8',
  });

describe('npm run validate', () => {
  it('lists every bad file with its field, and fails', async () => {
    const root = await badTree();
    const run = runValidate(root);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`${root}/provider_a/bad-json.json: malformed JSON`);
    expect(run.stderr).toContain(`${root}/provider_b/bad-fields.json → kind:`);
    expect(run.stderr).toContain(`${root}/provider_b/bad-fields.json → sourceUrl:`);
    expect(run.stderr).not.toContain('good-1');
  });

  it('passes a good tree and counts what it found', async () => {
    const run = runValidate(await writeEventTree({ 'provider_a/good-1.json': JSON.stringify(good) }));
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('1 valid event files (1 published, 0 drafts)');
  });
});

describe('the build', () => {
  it('refuses a tree with a bad file, names every bad file, and publishes nothing', async () => {
    const publishedData = 'dist/client/data/board.json';
    const before = await stat(publishedData);
    const failure = await buildSite({ siteUrl: 'http://127.0.0.1:1', eventsDir: await badTree() }).then(
      () => new Error('the build succeeded'),
      (error: Error) => error,
    );
    expect(failure.message).toMatch(/Invalid event files, nothing was built/);
    expect(failure.message).toContain('provider_a/bad-json.json');
    expect(failure.message).toContain('provider_b/bad-fields.json → kind');
    expect((await stat(publishedData)).mtimeMs).toBe(before.mtimeMs);
  });
});
