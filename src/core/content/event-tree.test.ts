import { describe, expect, it } from 'vitest';
import { classifyTreeEntries, type TreeEntry } from './event-tree.ts';

const dir = (path: string): TreeEntry => ({ path, type: 'directory' });
const file = (path: string): TreeEntry => ({ path, type: 'file' });

describe('classifyTreeEntries', () => {
  it('reads the regular <id>.json files of provider folders, and accepts missing provider folders', () => {
    const entries = [
      dir('provider_a'),
      file('provider_a/1.json'),
      file('provider_a/2.json'),
      dir('provider_c'),
      file('provider_c/x.json'),
    ];
    expect(classifyTreeEntries(entries)).toEqual({
      eventFiles: ['provider_a/1.json', 'provider_a/2.json', 'provider_c/x.json'],
      problems: [],
    });
    expect(classifyTreeEntries([])).toEqual({ eventFiles: [], problems: [] });
  });

  it.each<[string, TreeEntry[], string, RegExp, RegExp]>([
    [
      'a link in a provider folder',
      [dir('provider_a'), { path: 'provider_a/copy.json', type: 'symlink' }],
      'provider_a/copy.json',
      /symbolic link/,
      /replace the link/,
    ],
    ['a link at the top', [{ path: 'provider_b', type: 'symlink' }], 'provider_b', /symbolic link/, /replace the link/],
    [
      'a folder named x.json',
      [dir('provider_a'), dir('provider_a/x.json')],
      'provider_a/x.json',
      /is a folder/,
      /delete the folder/,
    ],
    [
      'a nested folder',
      [dir('provider_a'), dir('provider_a/2026'), file('provider_a/2026/1.json')],
      'provider_a/2026',
      /is a folder/,
      /move the event files up/,
    ],
    [
      'a notes file',
      [dir('provider_a'), file('provider_a/notes.txt')],
      'provider_a/notes.txt',
      /not an event file/,
      /move it out/,
    ],
    [
      'a file at the top',
      [file('1.json')],
      '1.json',
      /not inside a provider folder/,
      /provider_a, provider_b, provider_c/,
    ],
    [
      'the marker inside the events folder',
      [file('dataset.json')],
      'dataset.json',
      /data set marker/,
      /content\/dataset\.json/,
    ],
    [
      'an unknown folder',
      [dir('provider_z'), file('provider_z/1.json')],
      'provider_z',
      /not a provider folder/,
      /rename it/,
    ],
    [
      'a socket or pipe',
      [dir('provider_a'), { path: 'provider_a/pipe.json', type: 'other' }],
      'provider_a/pipe.json',
      /not a regular file/,
      /delete it/,
    ],
  ])('reports %s by name with a fix, and reads nothing from it', (_, entries, named, message, fix) => {
    const { eventFiles, problems } = classifyTreeEntries(entries);
    expect(eventFiles).toEqual([]);
    expect(problems).toEqual([
      { file: named, field: null, message: expect.stringMatching(message), fix: expect.stringMatching(fix) },
    ]);
  });
});
