import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeEvent, NOW } from '../core/test-events.ts';
import { writeEventTree } from '../../tests/support/event-trees.ts';
import { ALREADY_EXISTS, addDraft } from './event-store.ts';

const draft = makeEvent({ id: 'taken', announcedAt: '2026-06-01T00:00:00.000Z', verified: false });

describe('addDraft', () => {
  it('writes a new draft', async () => {
    const root = await writeEventTree({});
    expect(await addDraft(root, draft, NOW)).toEqual({ ok: true, file: 'provider_a/taken.json' });
    expect(JSON.parse(await readFile(path.join(root, 'provider_a/taken.json'), 'utf8'))).toEqual(draft);
  });

  it('leaves a file of the same name alone even when it is one the reader refuses', async () => {
    const root = await writeEventTree({});
    await mkdir(path.join(root, 'provider_a'));
    const latin1 = Buffer.from('{"summary": "Caf\xe9"}', 'latin1');
    await writeFile(path.join(root, 'provider_a/taken.json'), latin1);
    expect(await addDraft(root, draft, NOW)).toEqual({
      ok: false,
      problems: [{ file: 'provider_a/taken.json', field: 'id', message: ALREADY_EXISTS }],
    });
    expect(await readFile(path.join(root, 'provider_a/taken.json'))).toEqual(latin1);
  });
});
