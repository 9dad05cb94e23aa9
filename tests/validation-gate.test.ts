import { spawnSync } from 'node:child_process';
import { mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSite } from '../scripts/lib/local-server.ts';
import { makeEvent } from '../src/core/test-events.ts';
import { writeEventTree } from './support/event-trees.ts';
import { tempFolder } from './support/temp-folders.ts';

const good = makeEvent({ id: 'good-1', announcedAt: '2026-01-02T03:04:05.678Z' });
const other = makeEvent({ id: 'other-1', provider: 'provider_b', announcedAt: '2026-01-03T03:04:05.678Z' });
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
    // Reads as a draft, would publish as verified.
    'provider_c/twice.json': `{"verified": false, ${JSON.stringify({ ...good, id: 'twice', provider: 'provider_c' }).slice(1)}`,
  });

const runValidate = (eventsDir: string) =>
  spawnSync(process.execPath, ['scripts/validate.ts'], {
    env: { ...process.env, EVENTS_DIR: eventsDir },
    encoding: 'utf8',
  });

/** A folder of its own for each build: the shared build in dist/ is being served to the other files meanwhile. */
const outDirOfItsOwn = () => tempFolder('refused-build');

const buildFailure = async (eventsDir: string, outDir?: string): Promise<Error> =>
  buildSite({ siteUrl: 'http://127.0.0.1:1', eventsDir, outDir: outDir ?? outDirOfItsOwn() }).then(
    () => new Error('the build succeeded'),
    (error: Error) => error,
  );

/** A good tree plus a link to another provider's file and a link to a file outside the tree. */
async function treeWithLinks() {
  const root = await writeEventTree({
    'provider_a/good-1.json': JSON.stringify(good),
    'provider_b/other-1.json': JSON.stringify(other),
  });
  await addLinks(root);
  return root;
}

/** Adds to `root` a link to another provider's file and a link to a file outside the tree. */
async function addLinks(root: string) {
  await writeFile(path.join(root, 'provider_b/other-1.json'), JSON.stringify(other));
  const outside = path.join(path.dirname(root), 'unchecked.json');
  await writeFile(
    outside,
    JSON.stringify(makeEvent({ id: 'unchecked', provider: 'provider_c', announcedAt: '2026-01-04T00:00:00.000Z' })),
  );
  await symlink('../provider_b/other-1.json', path.join(root, 'provider_a/other-1.json'));
  await mkdir(path.join(root, 'provider_c'), { recursive: true });
  await symlink(outside, path.join(root, 'provider_c/unchecked.json'));
}

describe('npm run validate', () => {
  it('lists every bad file with its field, and fails', async () => {
    const root = await badTree();
    const run = runValidate(root);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`${root}/provider_a/bad-json.json: malformed JSON`);
    expect(run.stderr).toContain(`${root}/provider_b/bad-fields.json → kind:`);
    expect(run.stderr).toContain(`${root}/provider_b/bad-fields.json → sourceUrl:`);
    expect(run.stderr).toContain(`${root}/provider_c/twice.json → verified: duplicate key "verified"`);
    expect(run.stderr).not.toContain('good-1');
  });

  it('refuses a key given twice, bytes that are not UTF-8 and a file over 16 KiB, and a bad URL once', async () => {
    const root = await writeEventTree({
      'provider_a/good-1.json': JSON.stringify(good),
      // The byte order mark is accepted; the repeated key after it is not.
      'provider_a/twice.json': `\uFEFF${JSON.stringify({ ...good, id: 'twice', verified: false }, null, 2).replace('"verified": false', '"verified": false,\n  "verified": true')}`,
      'provider_b/large.json': `${JSON.stringify({ ...other, id: 'large' })}${'\n'.repeat(20_000)}`,
      'provider_c/script.json': JSON.stringify(
        makeEvent({
          id: 'script',
          provider: 'provider_c',
          announcedAt: good.announcedAt,
          sourceUrl: 'javascript:alert(1)',
        }),
      ),
    });
    // "Café" saved as Latin-1 by an editor that was not told otherwise.
    await writeFile(
      path.join(root, 'provider_b/latin1.json'),
      Buffer.from(JSON.stringify({ ...other, id: 'latin1', summary: 'Café' }), 'latin1'),
    );
    const run = runValidate(root);
    expect(run.status).toBe(1);
    expect(run.stderr.split('\n')).toEqual([
      `${root}/provider_a/twice.json → verified: duplicate key "verified" (lines 12 and 13); JSON keeps only the last, so the file says one thing and publishes another`,
      '    fix: keep one "verified" and delete the other',
      `${root}/provider_b/large.json: is 20304 bytes; an event file may be at most 16384 bytes (16 KiB)`,
      '    fix: an event file holds one short post: shorten the summary or the audience list',
      `${root}/provider_b/latin1.json: is not UTF-8: the byte at offset 234 (0xE9) does not start a valid UTF-8 character`,
      '    fix: save the file as UTF-8 in your editor (npm run event:add writes UTF-8), and check the text near that place',
      `${root}/provider_c/script.json → sourceUrl: must be an https URL of the original public post`,
      '    fix: the https address of the original public post',
      '',
      `4 problem(s) in ${root}; nothing can be published until they are fixed.`,
      '',
    ]);
  });

  it('refuses control characters and a bidirectional override in sourceAccount, and U+FFFF in a summary', async () => {
    // The files users met: each passed before, and made /feed.xml and /feed.atom unreadable to XML parsers.
    const root = await writeEventTree({
      'provider_a/good-1.json': JSON.stringify(good),
      'provider_a/controls.json': JSON.stringify({
        ...good,
        id: 'controls',
        sourceAccount: 'provider_a\u0000\u001B[31m',
      }),
      'provider_b/override.json': JSON.stringify({ ...other, id: 'override', sourceAccount: '\u202Emaet_b_redivorp' }),
      'provider_c/ffff.json': JSON.stringify({
        ...good,
        id: 'ffff',
        provider: 'provider_c',
        summary: 'Limits reset\uFFFF for everyone.',
      }),
    });
    const run = runValidate(root);
    expect(run.status).toBe(1);
    const inAName =
      'and any other control character or line break, bidirectional control (override, embedding, isolate or mark), noncharacter or lone surrogate';
    expect(run.stderr.split('\n')).toEqual([
      `${root}/provider_a/controls.json → sourceAccount: holds U+0000 (a control character) at character 11, after "provider_a" (and 1 more such character)`,
      `    fix: delete U+0000 (in the JSON it may be written \\u0000; most editors show it as nothing at all), ${inAName}`,
      `${root}/provider_b/override.json → sourceAccount: holds U+202E (a bidirectional embedding or override) at character 1, the first`,
      `    fix: delete U+202E (in the JSON it may be written \\u202E; most editors show it as nothing at all), ${inAName}`,
      `${root}/provider_c/ffff.json → summary: holds U+FFFF (a noncharacter) at character 13, after "Limits reset"`,
      '    fix: delete U+FFFF (in the JSON it may be written \\uFFFF; most editors show it as nothing at all), and any other control character (line breaks may stay), bidirectional override, embedding or isolate, noncharacter or lone surrogate',
      '',
      `3 problem(s) in ${root}; nothing can be published until they are fixed.`,
      '',
    ]);
  });

  it('passes a good tree and counts what it found', async () => {
    const run = runValidate(await writeEventTree({ 'provider_a/good-1.json': JSON.stringify(good) }));
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('1 valid event files (1 published, 0 drafts)');
  });

  it("refuses symbolic links, to another provider's file or to a file outside the tree, naming each", async () => {
    const root = await treeWithLinks();
    const run = runValidate(root);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`${root}/provider_a/other-1.json: is a symbolic link`);
    expect(run.stderr).toContain(`${root}/provider_c/unchecked.json: is a symbolic link`);
    expect(run.stderr).toContain('fix: replace the link with the file itself, or delete it');
  });

  it('refuses everything under the events folder that is not a <provider>/<id>.json file, naming each', async () => {
    const root = await writeEventTree({
      'provider_a/good-1.json': JSON.stringify(good),
      'provider_a/notes.txt': 'remember to check the post',
      'provider_a/2026/nested.json': JSON.stringify(good),
      'loose.json': JSON.stringify(good),
    });
    await mkdir(path.join(root, 'provider_b/folder.json'), { recursive: true });
    const run = runValidate(root);
    expect(run.status).toBe(1);
    const lines = run.stderr.split('\n').filter((line) => line.startsWith(root));
    expect(lines).toEqual([
      `${root}/loose.json: is not inside a provider folder; event files live at <provider>/<id>.json`,
      `${root}/provider_a/2026: is a folder; a provider folder holds only <id>.json files, no folders`,
      `${root}/provider_a/notes.txt: is not an event file; a provider folder holds only <id>.json files`,
      `${root}/provider_b/folder.json: is a folder; a provider folder holds only <id>.json files, no folders`,
    ]);
    expect(run.stderr).toContain('4 problem(s)');
  });

  it('accepts a byte order mark, and names an impossible date as one', async () => {
    const withMark = runValidate(await writeEventTree({ 'provider_a/good-1.json': `\uFEFF${JSON.stringify(good)}` }));
    expect(withMark.stderr).toBe('');
    expect(withMark.status).toBe(0);
    const impossible = runValidate(
      await writeEventTree({
        'provider_a/good-1.json': JSON.stringify({ ...good, announcedAt: '2026-02-30T10:00:00Z' }),
      }),
    );
    expect(impossible.status).toBe(1);
    expect(impossible.stderr).toContain(
      '→ announcedAt: is "2026-02-30T10:00:00Z": the date 2026-02-30 does not exist: February 2026 has 28 days',
    );
  });

  it('says in one line that a missing EVENTS_DIR does not exist, without a stack trace', () => {
    const missing = path.join(path.sep, 'tmp', 'departures-board-no-such-folder', 'events');
    const run = runValidate(missing);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringContaining(`The events folder ${missing} does not exist`),
    ]);
  });

  it('names a data set marker that is not one', async () => {
    const root = await writeEventTree({ 'provider_a/good-1.json': JSON.stringify(good) });
    await writeFile(path.join(path.dirname(root), 'dataset.json'), '{"sample": "yes"}');
    const run = runValidate(root);
    expect(run.status).toBe(1);
    expect(run.stderr.trim()).toBe(
      `${path.join(path.dirname(root), 'dataset.json')}: must be {"sample": true} or {"sample": false}; delete the file when the events are real data`,
    );
  });
});

// In the project itself, not a copy (scripts/lib/project-copy.ts): a refused build stops in Astro's first hook,
// before it writes anything `npm run dev`'s test shares (the content store, the caches, .astro/), as the first
// test checks of the output folder.
describe('the build', () => {
  // One refused build for every kind of bad file (an Astro start costs several seconds of CPU; the rules one by one
  // are the validator's and the first hook's in-process tests).
  it('refuses a tree with bad files and symbolic links, names each, and publishes nothing', async () => {
    // An earlier publication in the output folder, which a refused build must leave as it was.
    const outDir = outDirOfItsOwn();
    const publishedData = path.join(outDir, 'client/data/board.json');
    await mkdir(path.dirname(publishedData), { recursive: true });
    await writeFile(publishedData, '{"published": "before"}');
    const before = await stat(publishedData);
    const root = await badTree();
    await addLinks(root);
    const failure = await buildFailure(root, outDir);
    expect(failure.message).toMatch(/Invalid event files, nothing was built/);
    expect(failure.message).toContain('provider_a/bad-json.json');
    expect(failure.message).toContain('provider_b/bad-fields.json → kind');
    expect(failure.message).toContain('provider_c/twice.json → verified: duplicate key "verified"');
    expect(failure.message).toContain(`${root}/provider_a/other-1.json: is a symbolic link`);
    expect(failure.message).toContain(`${root}/provider_c/unchecked.json: is a symbolic link`);
    expect((await stat(publishedData)).mtimeMs).toBe(before.mtimeMs);
    expect(await readFile(publishedData, 'utf8')).toBe('{"published": "before"}');
  });

  it('says in one line that a missing EVENTS_DIR does not exist, without a stack trace', async () => {
    const missing = path.join(path.sep, 'tmp', 'departures-board-no-such-folder', 'events');
    const failure = await buildFailure(missing);
    expect(failure.message).toContain(`The events folder ${missing} does not exist`);
    expect(failure.message).not.toMatch(/^\s+at /m);
    expect(failure.message).not.toMatch(/stack trace/i);
  });
});
