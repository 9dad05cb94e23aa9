import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidDatasetMarker, readDatasetMarker } from './dataset-marker.ts';
import { tempFolder } from '../../tests/support/temp-folders.ts';

/** A content folder with an events folder, and the marker beside it when `marker` is given. */
async function contentFolder(marker?: string): Promise<string> {
  const content = tempFolder('marker');
  await mkdir(path.join(content, 'events'));
  if (marker !== undefined) await writeFile(path.join(content, 'dataset.json'), marker);
  return path.join(content, 'events');
}

describe('readDatasetMarker', () => {
  it('reads the marker beside the events folder', async () => {
    expect(await readDatasetMarker(await contentFolder('{"sample": true}\n'))).toEqual({ sample: true });
    expect(await readDatasetMarker(await contentFolder('\uFEFF{"sample": true}'))).toEqual({ sample: true });
    expect(await readDatasetMarker(await contentFolder('{"sample": false}'))).toEqual({ sample: false });
  });

  it('takes a missing marker for real data', async () => {
    expect(await readDatasetMarker(await contentFolder())).toEqual({ sample: false });
  });

  it('refuses a marker that is not one, naming the file', async () => {
    for (const text of ['{"sample": "yes"}', '{"sample": true, "extra": 1}', '{}', 'sample']) {
      const root = await contentFolder(text);
      const reading = readDatasetMarker(root);
      await expect(reading).rejects.toBeInstanceOf(InvalidDatasetMarker);
      await expect(reading).rejects.toThrow(path.join(path.dirname(root), 'dataset.json'));
    }
  });
});
