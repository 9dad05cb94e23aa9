import { mkdir, open, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readEventTree } from './event-files.ts';
import { tempFolder } from '../../tests/support/temp-folders.ts';

async function tree(): Promise<string> {
  const root = path.join(tempFolder('reader'), 'events');
  await mkdir(path.join(root, 'provider_a'), { recursive: true });
  return root;
}

describe('readEventTree', () => {
  it('refuses a file over 16 KiB by its size, and reads the others', async () => {
    const root = await tree();
    await writeFile(path.join(root, 'provider_a/small.json'), '{}');
    // 50 MB that take no room on the disk: the size is set, nothing is written.
    const large = await open(path.join(root, 'provider_a/large.json'), 'w');
    await large.truncate(50 * 1024 * 1024);
    await large.close();
    expect(await readEventTree(root)).toEqual({
      files: [{ path: 'provider_a/small.json', text: '{}' }],
      problems: [
        {
          file: 'provider_a/large.json',
          field: null,
          message: 'is 52428800 bytes; an event file may be at most 16384 bytes (16 KiB)',
          fix: 'an event file holds one short post: shorten the summary or the audience list',
        },
      ],
    });
  });

  it('refuses bytes that are not UTF-8, naming the offset, and keeps a byte order mark for the validator', async () => {
    const root = await tree();
    await writeFile(path.join(root, 'provider_a/latin1.json'), Buffer.from('{"summary": "Caf\xe9"}', 'latin1'));
    await writeFile(path.join(root, 'provider_a/marked.json'), '\uFEFF{"summary": "Café"}');
    expect(await readEventTree(root)).toEqual({
      files: [{ path: 'provider_a/marked.json', text: '\uFEFF{"summary": "Café"}' }],
      problems: [
        {
          file: 'provider_a/latin1.json',
          field: null,
          message: 'is not UTF-8: the byte at offset 16 (0xE9) does not start a valid UTF-8 character',
          fix: 'save the file as UTF-8 in your editor (npm run event:add writes UTF-8), and check the text near that place',
        },
      ],
    });
  });
});
