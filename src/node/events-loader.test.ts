import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { LoaderContext } from 'astro/loaders';
import { describe, expect, it } from 'vitest';
import { makeEvent } from '../core/test-events.ts';
import { validatedEventsLoader } from './events-loader.ts';
import { tempFolder } from '../../tests/support/temp-folders.ts';

/** The parts of Astro's loader context the loader uses, with a store that is a plain Map. */
function fakeContext() {
  const stored = new Map<string, unknown>();
  const context = {
    store: {
      clear: () => stored.clear(),
      set: ({ id, data }: { id: string; data: unknown }) => {
        stored.set(id, data);
        return true;
      },
    },
    parseData: async ({ data }: { data: unknown }) => data,
    generateDigest: (data: unknown) => JSON.stringify(data),
    logger: { info: () => undefined, error: () => undefined },
  } as unknown as LoaderContext;
  return { context, stored };
}

async function tree(): Promise<string> {
  const root = path.join(tempFolder('loader'), 'events');
  await mkdir(path.join(root, 'provider_a'), { recursive: true });
  return root;
}

describe('validatedEventsLoader', () => {
  it('loads exactly the events of the tree, by id', async () => {
    const root = await tree();
    const first = makeEvent({ id: 'one', announcedAt: '2026-01-01T00:00:00.000Z' });
    const second = makeEvent({ id: 'two', announcedAt: '2026-01-02T00:00:00.000Z' });
    await writeFile(path.join(root, 'provider_a/one.json'), JSON.stringify(first));
    await writeFile(path.join(root, 'provider_a/two.json'), `\uFEFF${JSON.stringify(second)}`);
    const { context, stored } = fakeContext();
    await validatedEventsLoader(root).load(context);
    expect(Object.fromEntries(stored)).toEqual({ one: first, two: second });
  });

  it('loads nothing from a tree with a symbolic link, and says which', async () => {
    const root = await tree();
    const event = makeEvent({ id: 'one', announcedAt: '2026-01-01T00:00:00.000Z' });
    await writeFile(path.join(root, 'provider_a/one.json'), JSON.stringify(event));
    const outside = path.join(path.dirname(root), 'outside.json');
    await writeFile(outside, JSON.stringify({ ...event, id: 'outside' }));
    await symlink(outside, path.join(root, 'provider_a/outside.json'));
    const { context, stored } = fakeContext();
    await expect(validatedEventsLoader(root).load(context)).rejects.toThrow(
      `${root}/provider_a/outside.json: is a symbolic link`,
    );
    expect(stored.size).toBe(0);
  });

  it('loads nothing from a tree with a key given twice, bytes that are not UTF-8 or a file over 16 KiB, naming each', async () => {
    const root = await tree();
    const event = makeEvent({ id: 'one', announcedAt: '2026-01-01T00:00:00.000Z', verified: false });
    await writeFile(
      path.join(root, 'provider_a/one.json'),
      JSON.stringify(event, null, 2).replace('"verified": false', '"verified": false,\n  "verified": true'),
    );
    await writeFile(path.join(root, 'provider_a/two.json'), Buffer.from([0x7b, 0xff, 0x7d]));
    await writeFile(path.join(root, 'provider_a/three.json'), ' '.repeat(16_385));
    const { context, stored } = fakeContext();
    const failure = await validatedEventsLoader(root)
      .load(context)
      .then(
        () => new Error('the events were loaded'),
        (error: Error) => error,
      );
    expect(failure.message.split('\n')).toEqual([
      'Invalid event files, the events were not loaded:',
      `${root}/provider_a/one.json → verified: duplicate key "verified" (lines 12 and 13); JSON keeps only the last, so the file says one thing and publishes another`,
      '    fix: keep one "verified" and delete the other',
      `${root}/provider_a/three.json: is 16385 bytes; an event file may be at most 16384 bytes (16 KiB)`,
      '    fix: an event file holds one short post: shorten the summary or the audience list',
      `${root}/provider_a/two.json: is not UTF-8: the byte at offset 1 (0xFF) does not start a valid UTF-8 character`,
      '    fix: save the file as UTF-8 in your editor (npm run event:add writes UTF-8), and check the text near that place',
    ]);
    expect(stored.size).toBe(0);
  });
});
